# Paddle's test_select: a buffered channel of capacity 1; a select sends
# 10 if it can (it can), else runs its default; then main receives it.
import paddle.fluid as fluid
import paddle.fluid.core as core

ch1 = fluid.make_channel(dtype=core.VarDesc.VarType.LOD_TENSOR, capacity=1)
result1 = fluid.layers.fill_constant(shape=[1], dtype=core.VarDesc.VarType.FP64, value=10)
default_hit = fluid.layers.fill_constant(shape=[1], dtype='bool', value=False)

with fluid.Select() as select:
    with select.case(fluid.channel_send, ch1, result1):
        fluid.layers.Print(input=result1)
    with select.default():
        fluid.layers.assign(fluid.layers.fill_constant(shape=[1], dtype='bool', value=True), default_hit)

result2 = fluid.layers.fill_constant(shape=[1], dtype=core.VarDesc.VarType.FP64, value=0)
result2, status = fluid.channel_recv(ch1, result2)
fluid.channel_close(ch1)

exe = fluid.Executor(fluid.CPUPlace())
exe.run(fetch_list=[result2, default_hit])
