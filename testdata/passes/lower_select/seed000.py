# Seed 000's select example, corrected: the channels it sends on and
# receives from exist, and a goroutine drives it (the Go tour's Fibonacci).
import paddle.fluid as fluid
import paddle.fluid.core as core
from paddle.fluid import layer_helper
from paddle.fluid.layers import While, fill_constant, assign, elementwise_add

channel = fluid.make_channel(dtype=core.VarDesc.VarType.LOD_TENSOR)
quit_channel = fluid.make_channel(dtype=core.VarDesc.VarType.LOD_TENSOR)
result = fill_constant(shape=[1], dtype=core.VarDesc.VarType.INT32, value=0)
result2 = fill_constant(shape=[1], dtype=core.VarDesc.VarType.INT32, value=0)

with fluid.Go():
    for i in range(10):
        fluid.channel_recv(channel, result)
    fluid.channel_send(quit_channel, result2)

x = fill_constant(shape=[1], dtype=core.VarDesc.VarType.INT32, value=0)
y = fill_constant(shape=[1], dtype=core.VarDesc.VarType.INT32, value=1)

while_cond = fill_constant(shape=[1], dtype=core.VarDesc.VarType.BOOL, value=True)
while_op = While(cond=while_cond)

with while_op.block():
    with fluid.Select() as select:
        with select.case(fluid.channel_send, channel, x, is_copy=True):
            x_tmp = fill_constant(shape=[1], dtype=core.VarDesc.VarType.INT32, value=0)
            assign(input=x, output=x_tmp)
            assign(input=y, output=x)
            assign(elementwise_add(x=x_tmp, y=y), output=y)
        with select.case(fluid.channel_recv, quit_channel, result2):
            while_false = fill_constant(shape=[1], dtype=core.VarDesc.VarType.BOOL, value=False)
            helper = layer_helper.LayerHelper('assign')
            helper.append_op(
                type='assign',
                inputs={'X': [while_false]},
                outputs={'Out': [while_cond]})

exe = fluid.Executor(fluid.CPUPlace())
exe.run(fluid.default_startup_program())
out = exe.run(fluid.default_main_program(), fetch_list=[result])
