# Paddle's 2018 test_simple_routine as written: the value sent is float64,
# the receiving placeholder was created int64 (Block.create_var), and the
# received tensor replaces it (the test asserts outs[0] == 1234).
import paddle.fluid as fluid
import paddle.fluid.core as core
from paddle.fluid import framework, unique_name
from paddle.fluid.layers import fill_constant

ch = fluid.make_channel(dtype=core.VarDesc.VarType.LOD_TENSOR)
result = framework.default_main_program().current_block().create_var(
    name=unique_name.generate('return_value'),
    type=core.VarDesc.VarType.LOD_TENSOR,
    dtype=core.VarDesc.VarType.INT64)

with fluid.Go():
    input_value = fill_constant(shape=[1], dtype=core.VarDesc.VarType.FP64, value=1234)
    fluid.channel_send(ch, input_value)

result, status = fluid.channel_recv(ch, result)
fluid.channel_close(ch)

exe = fluid.Executor(fluid.CPUPlace())
outs = exe.run(fetch_list=[result])
