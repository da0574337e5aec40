# 1.0's test_conditional_block.py: a ConditionalBlock over a float input
# (no scalar condition: the block runs when every input has elements),
# an fc inside reading that same input, then append_backward, and the
# input's gradient fetched from block 0. 1.x's grad maker gave the
# condition inputs their gradient (Cond@GRAD, "X@GRAD" in 1.0), which
# Paddle 3.3.1's dropped, so this runs in fluidc only; checked against
# numpy: d mean(fc(x)) / dx = the row sum of W over the output count.
import numpy as np
import paddle.fluid as fluid
import paddle.fluid.layers as layers
from paddle.fluid.backward import append_backward
from paddle.fluid.layers.control_flow import ConditionalBlock

fluid.default_startup_program().random_seed = 1
data = layers.data(name='X', shape=[2], dtype='float32')
data.stop_gradient = False
cond = ConditionalBlock(inputs=[data])
out = layers.create_tensor(dtype='float32')
with cond.block():
    hidden = layers.fc(input=data, size=10, param_attr='cw', bias_attr='cb')
    layers.assign(hidden, out)
loss = layers.mean(out)
append_backward(loss=loss)
block = fluid.default_main_program().block(0)
assert block.has_var('X@GRAD'), [v for v in block.vars if 'GRAD' in v]

exe = fluid.Executor(fluid.CPUPlace())
exe.run(fluid.default_startup_program())
x = np.arange(6).reshape(3, 2).astype('float32') * 0.5 - 1.0
got_out, got_dx, got_dw = exe.run(feed={'X': x},
                                  fetch_list=[out, block.var('X@GRAD'), 'cw@GRAD'])
w = np.array(fluid.global_scope().find_var('cw').get_tensor())
b = np.array(fluid.global_scope().find_var('cb').get_tensor())
assert np.allclose(got_out, x.dot(w) + b, atol=1e-6)
want_dx = np.tile(w.sum(axis=1) / 30.0, (3, 1))
assert got_dx.shape == (3, 2), got_dx.shape
assert np.allclose(got_dx, want_dx, atol=1e-6), (got_dx, want_dx)
assert np.allclose(got_dw, np.tile(x.sum(axis=0)[:, None] / 30.0, (1, 10)), atol=1e-6)
print('ok')
