# Names 1.x's layers/nn.py imported from tensor.py (concat since 1.0, assign
# 1.3, fill_constant 1.5, zeros 1.6), reached as `layers.nn.X` by scripts such
# as models' PaddleRec/multiview_simnet/nets.py.
from __future__ import print_function
import numpy as np
import paddle.fluid as fluid
import paddle.fluid.layers.nn as nn
import paddle.fluid.layers.tensor as tensor
from paddle.fluid.layers.nn import concat

print(nn.concat is fluid.layers.concat, concat is tensor.concat)
print(nn.assign is fluid.layers.assign, nn.fill_constant is fluid.layers.fill_constant,
      nn.zeros is fluid.layers.zeros)

main, startup = fluid.Program(), fluid.Program()
with fluid.program_guard(main, startup):
    q = fluid.layers.data(name="q", shape=[3], dtype="float32")
    t = fluid.layers.data(name="t", shape=[2], dtype="float32")
    # multiview style: encode each view, concat, then a projection
    q_enc = nn.fc(input=q, size=2, param_attr=fluid.ParamAttr(
        initializer=fluid.initializer.Constant(0.5)), bias_attr=False)
    joined = nn.concat([q_enc, t], axis=1)
    bias = nn.fill_constant(shape=[1], dtype="float32", value=0.25)
    zero = nn.zeros(shape=[1], dtype="float32")
    copy = nn.assign(joined)
    out = fluid.layers.elementwise_add(fluid.layers.reduce_sum(copy, dim=1, keep_dim=True),
                                       bias + zero)
exe = fluid.Executor(fluid.CPUPlace())
exe.run(startup)
j, o = exe.run(main, feed={"q": np.array([[1, 2, 3], [0, 1, 0]], dtype="float32"),
                           "t": np.array([[4, 5], [6, 7]], dtype="float32")},
               fetch_list=[joined, out])
print(joined.shape, j.tolist())
print(o.tolist())
