# 1.x's hard_swish (MobileNetV3), soft_relu and clip_by_norm: the
# activations of a small net trained a few steps (their gradients reach
# the input through every piece of hard_swish), and a feature vector
# clipped to a norm, kept or scaled down.
import numpy as np
import paddle.fluid as fluid

fluid.default_startup_program().random_seed = 41
x = fluid.layers.data(name='x', shape=[6], dtype='float32')
x.stop_gradient = False
h = fluid.layers.fc(input=x, size=5)
hs = fluid.layers.hard_swish(h)
hs2 = fluid.layers.hard_swish(x, threshold=4.0, scale=5.0, offset=2.0)
sr = fluid.layers.soft_relu(h)
sr2 = fluid.layers.soft_relu(x, threshold=1.5)
small = fluid.layers.clip_by_norm(x, max_norm=100.0)
clipped = fluid.layers.clip_by_norm(h, max_norm=1.0, name='h_clipped')
print(hs.shape, sr.shape, clipped.shape, clipped.name)
loss = fluid.layers.mean(hs) + fluid.layers.mean(hs2) + fluid.layers.mean(sr) \
    + fluid.layers.mean(sr2 * sr2)
fluid.optimizer.SGD(learning_rate=0.3).minimize(loss)
x_grad = fluid.default_main_program().global_block().var('x@GRAD')

exe = fluid.Executor(fluid.CPUPlace())
exe.run(fluid.default_startup_program())
feed = {'x': np.linspace(-7, 7, 24).reshape(4, 6).astype('float32')}
for step in range(3):
    out = exe.run(feed=feed, fetch_list=[loss, hs, hs2, sr, sr2, small, clipped, x_grad])
    print(step, np.round(out[0], 5).tolist())
for o in out[1:]:
    print((np.round(o, 4) + 0.0).tolist())
print(np.round(np.sqrt((out[6] ** 2).sum()), 4))
