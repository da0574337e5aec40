# 1.6's instance_norm (style-transfer and GAN generators) and group_norm
# (small-batch detection and segmentation nets) in a conv net trained a
# few Adam steps; group_norm with its scale and shift, and without them
# (1.6 made them only when param_attr / bias_attr were given) outside the
# loss: Paddle 3.3.1's gradient of a group_norm without Scale is off by a
# constant per group (runtime/tests/grad_kernels.rs checks fluidc's against
# finite differences).
import numpy as np
import paddle.fluid as fluid

fluid.default_startup_program().random_seed = 12
fluid.default_main_program().random_seed = 12
img = fluid.layers.data(name='img', shape=[3, 6, 6], dtype='float32')
img.stop_gradient = False
label = fluid.layers.data(name='label', shape=[1], dtype='int64')
c1 = fluid.layers.conv2d(img, num_filters=4, filter_size=3, padding=1,
                         param_attr=fluid.ParamAttr(initializer=fluid.initializer.Uniform(-0.3, 0.3, seed=2)))
n1 = fluid.layers.instance_norm(c1)
c2 = fluid.layers.conv2d(fluid.layers.relu(n1), num_filters=6, filter_size=3, padding=1,
                         param_attr=fluid.ParamAttr(initializer=fluid.initializer.Uniform(-0.3, 0.3, seed=3)))
n2 = fluid.layers.group_norm(c2, groups=3, param_attr=fluid.ParamAttr(name='gn_scale'),
                             bias_attr=fluid.ParamAttr(name='gn_bias'), act='relu')
pool = fluid.layers.pool2d(n2, pool_type='avg', global_pooling=True)
logits = fluid.layers.fc(pool, 3, param_attr=fluid.ParamAttr(initializer=fluid.initializer.Uniform(-0.5, 0.5, seed=4)))
loss = fluid.layers.mean(fluid.layers.softmax_with_cross_entropy(logits, label))
fluid.optimizer.Adam(learning_rate=0.05).minimize(loss)
frames = fluid.layers.data(name='frames', shape=[3, 2, 2], dtype='float32')
plain = fluid.layers.group_norm(frames, groups=3)
print([op.type for op in fluid.default_main_program().global_block().ops if 'norm' in op.type])
exe = fluid.Executor(fluid.CPUPlace())
exe.run(fluid.default_startup_program())
rng = np.random.RandomState(7)
x = rng.rand(4, 3, 6, 6).astype('float32')
y = np.array([[0], [1], [2], [1]], dtype='int64')
for step in range(4):
    l, g, p = exe.run(feed={'img': x, 'label': y, 'frames': x[:, :, :2, :2]},
                      fetch_list=[loss, 'img@GRAD', plain])
    print(step, np.round(l, 4), np.round(g[0, 0, 0], 5).tolist(), np.round(p[1, 2], 4).tolist())
scale = np.array(fluid.global_scope().find_var('gn_scale').get_tensor())
print('gn_scale', np.round(scale, 4).tolist())
