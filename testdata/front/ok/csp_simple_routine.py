# Paddle's test_simple_routine: a goroutine sends 1234 on an unbuffered
# channel; the main goroutine receives it.
import paddle.fluid as fluid
import paddle.fluid.core as core
from paddle.fluid import framework

ch = fluid.make_channel(dtype=core.VarDesc.VarType.LOD_TENSOR)

with fluid.Go():
    input_value = fluid.layers.fill_constant(shape=[1], dtype=core.VarDesc.VarType.FP64, value=1234)
    fluid.channel_send(ch, input_value)

result = fluid.layers.fill_constant(shape=[1], dtype=core.VarDesc.VarType.FP64, value=0)
result, status = fluid.channel_recv(ch, result)
fluid.channel_close(ch)

exe = fluid.Executor(fluid.CPUPlace())
outs = exe.run(fetch_list=[result])
