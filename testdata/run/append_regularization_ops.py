# fluid.optimizer.append_regularization_ops (fluid.regularizer's, which
# 1.x's optimizer module re-exported), as the 2018 regularizer test drove
# it: a parameter's own L2 or L1 decay, else the global one, added to its
# gradient (scale, or sign then scale, then sum in place, in name scope
# /regularization/ as Paddle 1.2-1.5 built it); then the gradient values
# a run gives, against numpy.
import numpy as np
import paddle.fluid as fluid
import paddle.fluid.framework as framework
import paddle.fluid.optimizer as optimizer
import paddle.fluid.regularizer as regularizer
from paddle.fluid.backward import append_backward

program = framework.Program()
startup = framework.Program()
with fluid.program_guard(program, startup):
    x = fluid.layers.data(name='x', shape=[3], dtype='float32')
    w_init = np.array([[0.5, -1.0], [0.0, 2.0], [-0.25, 0.75]], dtype='float32')
    h = fluid.layers.fc(input=x, size=2, bias_attr=False,
                        param_attr=fluid.ParamAttr(
                            name='w', regularizer=regularizer.L2DecayRegularizer(0.5),
                            initializer=fluid.initializer.NumpyArrayInitializer(w_init)))
    out = fluid.layers.fc(input=h, size=1, bias_attr=False,
                          param_attr=fluid.ParamAttr(
                              name='v', regularizer=regularizer.L1DecayRegularizer(0.25),
                              initializer=fluid.initializer.Constant(-0.5)))
    z = fluid.layers.fc(input=x, size=1, bias_attr=False,
                        param_attr=fluid.ParamAttr(name='u',
                                                   initializer=fluid.initializer.Constant(1.5)))
    loss = fluid.layers.mean(out + z)
    params_grads = append_backward(loss)
    block = program.global_block()
    count = len(block.ops)
    grads_before = [g.name for _, g in params_grads]
    params_grads = optimizer.append_regularization_ops(params_grads,
                                                       regularizer.L2Decay(0.125))
    print([(p.name, g.name) for p, g in params_grads])
    print(grads_before == [g.name for _, g in params_grads])
    print(len(block.ops) - count, [op.type for op in block.ops[count:]])
    added = block.ops[count:]
    print([op.attr('op_role') for op in added])
    print(added[-1].attr('op_role_var'), added[-1].attr('op_namescope'))
    print([op.attr('scale') for op in added if op.type == 'scale'])
    print(fluid.regularizer.append_regularization_ops is optimizer.append_regularization_ops)
    print(str(regularizer.L1Decay(0.25)))

exe = fluid.Executor(fluid.CPUPlace())
exe.run(startup)
xs = np.array([[1.0, 2.0, -1.0], [0.5, 0.0, 3.0]], dtype='float32')
gw, gv, gu = exe.run(program, feed={'x': xs}, fetch_list=['w@GRAD', 'v@GRAD', 'u@GRAD'])
v = np.full((2, 1), -0.5, dtype='float32')
expect_w = xs.T.dot(np.ones((2, 1), dtype='float32') / 2).dot(v.T) + 0.5 * w_init
expect_v = xs.dot(w_init).T.dot(np.ones((2, 1), dtype='float32') / 2) + 0.25 * np.sign(v)
expect_u = xs.T.dot(np.ones((2, 1), dtype='float32') / 2) + 0.125 * 1.5
for got, expect in ((gw, expect_w), (gv, expect_v), (gu, expect_u)):
    print(got.shape, np.allclose(got, expect, atol=1e-6), [round(float(a), 5) for a in got.flatten()])

try:
    optimizer.append_regularization_ops([(block.var('w'), None)], regularizer.L2Decay(0.1))
    print('a missing gradient is left alone')
except Exception as e:
    print(type(e).__name__, e)
