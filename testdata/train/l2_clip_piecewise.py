# Regression with the 2019 knobs: L2 weight decay on the optimizer, gradient
# clipping by global norm (set_gradient_clip) and a piecewise-constant
# learning rate driven by the global step counter.
from __future__ import print_function
import numpy as np
import paddle.fluid as fluid

fluid.default_startup_program().random_seed = 11

rng = np.random.RandomState(3)
xs = rng.uniform(-1, 1, size=(16, 4)).astype('float32')
ys = (xs.sum(axis=1, keepdims=True) * 3.0 + 0.5).astype('float32')

x = fluid.layers.data(name='x', shape=[4], dtype='float32')
y = fluid.layers.data(name='y', shape=[1], dtype='float32')
hidden = fluid.layers.fc(input=x, size=8, act='tanh')
pred = fluid.layers.fc(input=hidden, size=1)
avg_cost = fluid.layers.mean(fluid.layers.square_error_cost(input=pred, label=y))

fluid.clip.set_gradient_clip(fluid.clip.GradientClipByGlobalNorm(clip_norm=1.0))
lr = fluid.layers.piecewise_decay(boundaries=[5, 10], values=[0.1, 0.05, 0.01])
sgd = fluid.optimizer.SGD(learning_rate=lr,
                          regularization=fluid.regularizer.L2Decay(1e-3))
sgd.minimize(avg_cost)

exe = fluid.Executor(fluid.CPUPlace())
exe.run(fluid.default_startup_program())
for step in range(15):
    loss, cur_lr = exe.run(feed={'x': xs, 'y': ys}, fetch_list=[avg_cost, lr])
    print("%d %.6f %.4f" % (step, loss, cur_lr[0]))
