# 1.x's layers.crop: a centre patch cut out of a feature map by a fixed
# shape and offsets, cropped to the shape of another Variable (as 2018's
# FCN/U-Net code cropped skip connections to the upsampled map), and with
# offsets fed at run time; the gradient is zero outside the patch.
import numpy as np
import paddle.fluid as fluid

fluid.default_startup_program().random_seed = 9
img = fluid.layers.data(name='img', shape=[2, 5, 5], dtype='float32')
img.stop_gradient = False
small = fluid.layers.data(name='small', shape=[2, 3, 2], dtype='float32')
where = fluid.layers.data(name='where', shape=[4], dtype='int32', append_batch_size=False)
fixed = fluid.layers.crop(img, shape=[-1, 2, 3, 3], offsets=[0, 0, 1, 1])
like = fluid.layers.crop(img, shape=small, offsets=[0, 0, 2, 0])
moved = fluid.layers.crop(img, shape=[2, 1, 2, 2], offsets=where)
print(fixed.shape, like.shape, moved.shape)
conv = fluid.layers.conv2d(input=fixed, num_filters=2, filter_size=2, act='tanh')
loss = fluid.layers.mean(conv) + fluid.layers.reduce_sum(like) * 0.1 \
    + fluid.layers.reduce_max(moved)
fluid.optimizer.SGD(learning_rate=0.1).minimize(loss)
img_grad = fluid.default_main_program().global_block().var('img@GRAD')

exe = fluid.Executor(fluid.CPUPlace())
exe.run(fluid.default_startup_program())
feed = {'img': np.linspace(-1, 1, 2 * 2 * 5 * 5).reshape(2, 2, 5, 5).astype('float32'),
        'small': np.zeros((2, 2, 3, 2), 'float32'),
        'where': np.array([0, 1, 3, 2]).astype('int32')}
for step in range(3):
    l, f, k, m, g = exe.run(feed=feed, fetch_list=[loss, fixed, like, moved, img_grad])
    print(step, np.round(l, 5).tolist(), f.shape, k.shape, m.shape)
print(np.round(f[1], 4).tolist())
print(np.round(k[0], 4).tolist())
print(np.round(m, 4).tolist())
print(np.round(g[1], 5).tolist())
