# Early-2018 channel forms (docs/python-package.md): paddle.v2.fluid, make_channel with a
# Python type or name=, channel_send of a Python value (a fill_constant of
# the channel's element type), channel_recv without a return value (a new
# variable of the element type, or of dtype=).
import paddle.v2.fluid as fluid
import paddle.v2.fluid.core as core
from paddle.v2.fluid.executor import Executor

ch = fluid.make_channel(dtype=core.VarDesc.VarType.BOOL, name="CreateChannel")
with fluid.Go():
    fluid.channel_send(ch, True)
result = fluid.channel_recv(ch)
fluid.channel_close(ch)

ints = fluid.make_channel(dtype=int, capacity=1)
fluid.channel_send(ints, 7)
seven = fluid.channel_recv(ints)

tensors = fluid.make_channel(dtype=core.VarDesc.VarType.LOD_TENSOR, capacity=1)
fluid.channel_send(tensors, 2.5)
half = fluid.channel_recv(tensors, dtype='float64')

floats = fluid.make_channel(dtype=float)
with fluid.Go():
    fluid.channel_send(floats, 1)
one = fluid.channel_recv(floats)

exe = Executor(core.CPUPlace())
outs = exe.run(fetch_list=[result, seven, half, one])
