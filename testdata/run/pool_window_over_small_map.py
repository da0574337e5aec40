# AI Studio's 2019 cat/dog tutorial net for 32x32 images: three
# conv(5)-pool(2) groups leave a 1x1 map, and the last 2x2 stride-2 pool
# runs over it. Paddle sized that output (1 - 2) / 2 + 1 = 1 (C++'s
# truncating division) and cut the window to the map; a conv whose filter
# overhangs the input by less than a stride reads zeros there. Values and
# gradients through both.
import numpy as np
import paddle.fluid as fluid

img = fluid.layers.data(name='img', shape=[3, 32, 32], dtype='float32')
label = fluid.layers.data(name='label', shape=[1], dtype='int64')
h = img
for nf in [4, 6, 6]:
    h = fluid.nets.simple_img_conv_pool(input=h, filter_size=5, num_filters=nf,
                                        pool_size=2, pool_stride=2, act='relu',
                                        param_attr=fluid.ParamAttr(
                                            initializer=fluid.initializer.Uniform(-0.3, 0.3, seed=7)))
print('last pool shape', h.shape)
pred = fluid.layers.fc(input=h, size=2, act='softmax',
                       param_attr=fluid.ParamAttr(initializer=fluid.initializer.Constant(0.2)))
loss = fluid.layers.mean(fluid.layers.cross_entropy(input=pred, label=label))

small = fluid.layers.data(name='small', shape=[1, 3, 3], dtype='float32')
small.stop_gradient = False
mx = fluid.layers.pool2d(small, pool_size=4, pool_stride=2, pool_type='max')
av = fluid.layers.pool2d(small, pool_size=4, pool_stride=2, pool_type='avg')
cv = fluid.layers.conv2d(small, num_filters=1, filter_size=4, stride=2, bias_attr=False,
                         param_attr=fluid.ParamAttr(initializer=fluid.initializer.Constant(0.5)))
side = fluid.layers.reduce_sum(mx) + fluid.layers.reduce_sum(av) + fluid.layers.reduce_sum(cv)
print('small shapes', mx.shape, av.shape, cv.shape)
fluid.backward.append_backward(side)
fluid.optimizer.SGD(learning_rate=0.1).minimize(loss)

exe = fluid.Executor(fluid.CPUPlace())
exe.run(fluid.default_startup_program())
rng = np.random.RandomState(0)
x = rng.rand(4, 3, 32, 32).astype('float32')
y = np.array([[0], [1], [1], [0]], dtype='int64')
s = np.arange(9, dtype='float32').reshape(1, 1, 3, 3) * 0.5 - 1.0
for step in range(3):
    l, m, a, c, g = exe.run(feed={'img': x, 'label': y, 'small': s},
                            fetch_list=[loss, mx, av, cv, 'small@GRAD'])
    print(step, np.round(l, 5), m.ravel(), a.ravel(), c.ravel())
print(g.reshape(3, 3))
