# 1.x's backward.calc_gradient (and 1.5's fluid.gradients): the gradients of
# a loss with respect to a data layer and a parameter, fetched; then given
# target gradients, and an input the target does not depend on (None).
import numpy as np
import paddle.fluid as fluid
import paddle.fluid.layers as layers
from paddle.fluid.backward import calc_gradient

x = layers.data(name='x', shape=[3], dtype='float32')
x.stop_gradient = False
w = layers.create_parameter(shape=[3, 2], dtype='float32', name='w',
                            default_initializer=fluid.initializer.Constant(0.5))
h = layers.mul(x, w)
loss = layers.mean(layers.elementwise_mul(h, h))
gx, gw = calc_gradient(loss, [x, w])
print(gx.name, gw.name, gx.shape, gw.shape)
exe = fluid.Executor(fluid.CPUPlace())
exe.run(fluid.default_startup_program())
xs = np.array([[1.0, -2.0, 3.0], [0.5, 0.5, 0.5]], dtype='float32')
a, b = exe.run(feed={'x': xs}, fetch_list=[gx, gw])
print(np.round(a, 4).tolist())
print(np.round(b, 4).tolist())
prog = fluid.Program()
with fluid.program_guard(prog, fluid.Program()):
    u = layers.data(name='u', shape=[3], dtype='float32')
    u.stop_gradient = False
    v = layers.data(name='v', shape=[3], dtype='float32')
    sq = layers.elementwise_mul(u, u)
    seed = layers.data(name='seed', shape=[3], dtype='float32')
    gu, gv = calc_gradient([sq], [u, v], target_gradients=[seed])
    print(gu.name, gv)
us = np.array([[1.0, -2.0, 3.0]], dtype='float32')
seeds = np.array([[0.5, 1.0, 2.0]], dtype='float32')
got, = exe.run(prog, feed={'u': us, 'v': us, 'seed': seeds}, fetch_list=[gu])
print(got.tolist())
prog2 = fluid.Program()
with fluid.program_guard(prog2, fluid.Program()):
    p = layers.data(name='p', shape=[2], dtype='float32')
    p.stop_gradient = False
    listed = fluid.gradients(layers.reduce_sum(layers.exp(p)), p)
    print(type(listed).__name__, len(listed))
got, = exe.run(prog2, feed={'p': np.array([[0.0, 1.0]], dtype='float32')}, fetch_list=listed)
print(np.round(got, 4).tolist())
try:
    calc_gradient(loss, [x], target_gradients=[loss, loss])
except ValueError as e:
    print('ValueError:', e)
