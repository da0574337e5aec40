# 1.x's rnn_memory_helper and rnn_memory_helper_grad, appended directly as
# 1.x's test_rnn_memory_helper_op.py did: Out is X (its LoD too), X@GRAD
# is Out@GRAD. (Its third case, an Out@GRAD of another program, is one
# fluidc's verifier refuses; runtime/tests/grad_kernels.rs checks the
# zeros the grad gives without one.) Paddle 3.3.1 dropped both;
# numpy_rnn_memory_helper_op.py prints what 1.x's kernels computed
# (tests/lod_rnn.rs compares).
from __future__ import print_function

import numpy as np
import paddle.fluid as fluid
import paddle.fluid.core as core
from paddle.fluid.executor import Executor
from paddle.fluid.framework import Program

place = core.CPUPlace()
exe = Executor(place)
x_np = (np.arange(6).reshape(2, 3) * 0.25 - 0.5).astype('float32')
dout_np = np.array([[0.5, -1.0, 2.0], [1.5, 0.0, -0.25]], dtype='float32')

program = Program()
block = program.global_block()
x = block.create_var(name='X', shape=[2, 3], dtype='float32', lod_level=1)
out = block.create_var(name='Out', shape=[2, 3], dtype='float32', lod_level=1)
block.append_op(type='rnn_memory_helper', inputs={'X': x}, outputs={'Out': out}, attrs={})
x_lod = fluid.create_lod_tensor(x_np, [[1, 1]], place)
res, = exe.run(program, feed={'X': x_lod}, fetch_list=[out], return_numpy=False)
print(np.array(res).tolist(), res.lod())

program = Program()
block = program.global_block()
ins = {n: block.create_var(name=n, shape=[2, 3], dtype='float32')
       for n in ['X', 'Out', 'Out@GRAD']}
dx = block.create_var(name='X@GRAD', shape=[2, 3], dtype='float32')
block.append_op(type='rnn_memory_helper_grad', inputs=ins, outputs={'X@GRAD': dx}, attrs={})
res, = exe.run(program, feed={'X': x_np, 'Out': x_np, 'Out@GRAD': dout_np}, fetch_list=[dx])
print(res.tolist(), res.dtype)

