# The adam op as Paddle 1.0-1.6 wrote it: no Beta1PowOut/Beta2PowOut (1.x's
# AdamOptimizer advanced the beta powers with `scale` ops of its own, which
# programs saved by 1.x hold), and the proto 1.x's op tests saw
# (OpProtoHolder: ParamOut, Moment1Out, Moment2Out). The op leaves the
# powers alone; the scale ops advance them. fluidc only: Paddle 3.3.1's
# adam requires the power outputs. Checked against numpy's Adam.
import numpy as np
import paddle.fluid as fluid
from paddle.fluid.framework import OpProtoHolder

proto = OpProtoHolder.instance().get_op_proto('adam')
outs = [o.name for o in proto.outputs]
assert outs == ['ParamOut', 'Moment1Out', 'Moment2Out'], outs

block = fluid.default_main_program().global_block()
g = fluid.layers.data(name='g', shape=[3], dtype='float32', append_batch_size=False)


p = fluid.layers.create_global_var(shape=[3], value=0.5, dtype='float32', persistable=True, name='p')
m1 = fluid.layers.create_global_var(shape=[3], value=0.0, dtype='float32', persistable=True, name='m1')
m2 = fluid.layers.create_global_var(shape=[3], value=0.0, dtype='float32', persistable=True, name='m2')
b1p = fluid.layers.create_global_var(shape=[1], value=0.9, dtype='float32', persistable=True, name='b1p')
b2p = fluid.layers.create_global_var(shape=[1], value=0.999, dtype='float32', persistable=True, name='b2p')
lr = fluid.layers.create_global_var(shape=[1], value=0.1, dtype='float32', persistable=True, name='lr')
block.append_op(type='adam',
                inputs={'Param': p, 'Grad': g, 'LearningRate': lr, 'Moment1': m1, 'Moment2': m2,
                        'Beta1Pow': b1p, 'Beta2Pow': b2p},
                outputs={'ParamOut': p, 'Moment1Out': m1, 'Moment2Out': m2},
                attrs={'beta1': 0.9, 'beta2': 0.999, 'epsilon': 1e-8})
for acc, beta in [(b1p, 0.9), (b2p, 0.999)]:
    block.append_op(type='scale', inputs={'X': acc}, outputs={'Out': acc}, attrs={'scale': beta})

exe = fluid.Executor(fluid.CPUPlace())
exe.run(fluid.default_startup_program())
want_p, want_m1, want_m2, pow1, pow2 = np.full(3, 0.5), np.zeros(3), np.zeros(3), 0.9, 0.999
grads = [np.array([0.1, -0.2, 0.3], 'float32'), np.array([0.05, 0.0, -0.4], 'float32'),
         np.array([-0.3, 0.2, 0.1], 'float32')]
for grad in grads:
    got_p, got_b1p = exe.run(feed={'g': grad}, fetch_list=[p, b1p])
    want_m1 = 0.9 * want_m1 + 0.1 * grad
    want_m2 = 0.999 * want_m2 + 0.001 * grad * grad
    lr_t = 0.1 * np.sqrt(1 - pow2) / (1 - pow1)
    want_p = want_p - lr_t * want_m1 / (np.sqrt(want_m2) + 1e-8 * np.sqrt(1 - pow2))
    pow1, pow2 = pow1 * 0.9, pow2 * 0.999
    assert np.allclose(got_p, want_p, rtol=1e-5), (got_p, want_p)
    assert np.allclose(got_b1p, pow1, rtol=1e-6), (got_b1p, pow1)
print('adam 1.x op: ok')
