# Paddle's test_fibonacci (the Go tour's): a select loop sends Fibonacci
# numbers until a quit channel has a value; a goroutine takes ten.
import paddle.fluid as fluid
import paddle.fluid.core as core
from paddle.fluid.layers import While, fill_constant, assign, elementwise_add, Print

quit_ch_input_var = fluid.layers.create_global_var(shape=[1], value=0, dtype=core.VarDesc.VarType.INT32, persistable=True)
result = fluid.layers.create_global_var(shape=[1], value=0, dtype=core.VarDesc.VarType.INT32, persistable=True)

ch = fluid.make_channel(dtype=core.VarDesc.VarType.LOD_TENSOR)
quit_ch = fluid.make_channel(dtype=core.VarDesc.VarType.LOD_TENSOR)


def fibonacci(channel, quit_channel):
    while_op = While(cond=while_cond)
    with while_op.block():
        result2 = fill_constant(shape=[1], dtype=core.VarDesc.VarType.INT32, value=0)
        with fluid.Select() as select:
            with select.case(fluid.channel_send, channel, x, is_copy=True):
                assign(input=x, output=x_tmp)
                assign(input=y, output=x)
                assign(elementwise_add(x=x_tmp, y=y), output=y)
            with select.case(fluid.channel_recv, quit_channel, result2):
                while_false = fill_constant(shape=[1], dtype=core.VarDesc.VarType.BOOL, value=False)
                assign(input=while_false, output=while_cond)


x = fill_constant(shape=[1], dtype=core.VarDesc.VarType.INT32, value=0)
y = fill_constant(shape=[1], dtype=core.VarDesc.VarType.INT32, value=1)
x_tmp = fill_constant(shape=[1], dtype=core.VarDesc.VarType.INT32, value=0)
while_cond = fill_constant(shape=[1], dtype=core.VarDesc.VarType.BOOL, value=True)

with fluid.Go():
    for i in range(10):
        fluid.channel_recv(ch, result)
        Print(result)
    fluid.channel_send(quit_ch, quit_ch_input_var)

fibonacci(ch, quit_ch)
fluid.channel_close(ch)
fluid.channel_close(quit_ch)

exe = fluid.Executor(fluid.CPUPlace())
exe.run(fluid.default_startup_program())
exe.run(fetch_list=[result])
