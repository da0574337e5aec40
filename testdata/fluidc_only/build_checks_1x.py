# What Paddle 1.x's InferShape let a program build with, as its own
# test_layers and test_one_hot_op did: hsigmoid with a custom tree over a
# 3-D input (1.x read only the batch dim of X), and a 1.x one_hot over a
# float declaration of another width (1.x asked for a last dim of at least
# 1, and the kernel refused ids out of range when it ran). fluidc only:
# Paddle 3.3.1 refuses both when the program is built.
import numpy as np
import paddle.fluid as fluid
import paddle.fluid.core as core
from paddle.fluid import layers

prog = fluid.Program()
with fluid.program_guard(prog, fluid.Program()):
    x2 = layers.data(name='x2', shape=[4, 8], dtype='float32')
    y2 = layers.data(name='y2', shape=[4], dtype='int64')
    path_table = layers.data(name='path_table', shape=[4, 6], dtype='int64')
    path_code = layers.data(name='path_code', shape=[4, 6], dtype='int64')
    cost = layers.hsigmoid(input=x2, label=y2, num_classes=6, path_table=path_table,
                           path_code=path_code, is_custom=True)
    print(cost.shape)

prog = fluid.Program()
with fluid.program_guard(prog):
    x = layers.data(name='x', shape=[12], dtype='float32', lod_level=1)
    out = prog.current_block().create_var(name='one_hot_out', dtype='float32',
                                           type=core.VarDesc.VarType.LOD_TENSOR)
    prog.current_block().append_op(type='one_hot', inputs={'X': x}, attrs={'depth': 10},
                                   outputs={'Out': out})
ids = core.LoDTensor()
ids.set(np.array([[3], [12], [5]], dtype='int64'), core.CPUPlace())
ids.set_recursive_sequence_lengths([[1, 2]])
exe = fluid.Executor(fluid.CPUPlace())
try:
    exe.run(prog, feed={'x': ids}, fetch_list=[out], return_numpy=False)
except core.EnforceNotMet:
    print('EnforceNotMet: id 12 is out of range for depth 10')
