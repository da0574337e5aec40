# The 2018 channel forms whose results changed between versions (see
# fluid/concurrency.py): `channel_send(ch, value, dtype=)`, `result, status =
# channel_recv(ch, dtype=<VarType.LOD_TENSOR>)` (a pair, March 2018's
# test_routine_op) and `channel_recv(ch, dtype='int32')` (one value, so
# `1 + fluid.channel_recv(...)` is a Variable).
import paddle.fluid as fluid
import paddle.fluid.core as core
from paddle.fluid.layers import fill_constant

# 99 sent from a goroutine comes back as float64 [99.0], with status true.
ch = fluid.make_channel(dtype=core.VarDesc.VarType.LOD_TENSOR)
with fluid.Go():
    input_value = fill_constant(shape=[1], dtype=core.VarDesc.VarType.FP64, value=99)
    fluid.channel_send(ch, input_value, dtype=core.VarDesc.VarType.LOD_TENSOR)
result, status = fluid.channel_recv(ch, dtype=core.VarDesc.VarType.LOD_TENSOR)
fluid.channel_close(ch)

# Go's daisy chain: the 1 sent into the rightmost channel passes through
# n goroutines, each adding 1, so the leftmost channel gives n + 1 = 11.
n = 10
leftmost = fluid.make_channel(dtype='int32')
left = leftmost
for i in range(n):
    right = fluid.make_channel(dtype='int32')
    with fluid.Go():
        fluid.channel_send(left, 1 + fluid.channel_recv(right, dtype='int32'))
    left = right
with fluid.Go():
    fluid.channel_send(right, 1, dtype='int32')
leftmost_received = fluid.channel_recv(leftmost, dtype='int32')

# A Python bool sent with dtype='bool' is received as [true].
flags = fluid.make_channel(dtype='bool')
with fluid.Go():
    fluid.channel_send(flags, True, dtype='bool')
flag = fluid.channel_recv(flags, dtype='bool')

exe = fluid.Executor(core.CPUPlace())
outs = exe.run(fetch_list=[result, status, leftmost_received, flag])
