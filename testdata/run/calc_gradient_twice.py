# 2018's way of checking one gradient at a time: calc_gradient called twice
# on the same program, first for an intermediate result, then for the
# parameters; all are fetched from one run (Paddle 1.0-1.4 appended the
# second backward under the same @GRAD names).
import numpy as np
import paddle.fluid as fluid
from paddle.fluid.backward import calc_gradient

w1 = fluid.layers.create_parameter(dtype="float32", shape=[2, 3], name='w1',
        default_initializer=fluid.initializer.Constant(1.0))
w2 = fluid.layers.create_parameter(dtype="float32", shape=[3, 2], name='w2',
        default_initializer=fluid.initializer.Constant(2.0))
hidden = fluid.layers.mul(x=w1, y=w2)
act = fluid.layers.tanh(fluid.layers.scale(hidden, scale=0.1))
loss = fluid.layers.mean(act)
g_hidden = calc_gradient(loss, hidden)
g_w1, g_w2 = fluid.gradients(loss, [w1, w2])
exe = fluid.Executor(fluid.CPUPlace())
exe.run(fluid.default_startup_program())
outs = exe.run(fluid.default_main_program(),
               fetch_list=[loss, g_hidden, g_w1, g_w2])
for name, v in zip(['loss', 'hidden', 'w1', 'w2'], outs):
    print(name, np.asarray(v).shape, np.round(np.asarray(v), 5).tolist())
