# Paddle's test_ping_pong: ping then pong on two buffered channels, all on
# the main goroutine.
import paddle.fluid as fluid
import paddle.fluid.core as core


def ping(ch, message):
    fluid.channel_send(ch, message, is_copy=True)


def pong(ch1, ch2):
    fluid.channel_recv(ch1, ping_result)
    fluid.channel_send(ch2, ping_result, is_copy=True)


pings = fluid.make_channel(dtype=core.VarDesc.VarType.LOD_TENSOR, capacity=1)
pongs = fluid.make_channel(dtype=core.VarDesc.VarType.LOD_TENSOR, capacity=1)

msg = fluid.layers.fill_constant(shape=[1], dtype=core.VarDesc.VarType.FP64, value=9)
ping_result = fluid.layers.fill_constant(shape=[1], dtype=core.VarDesc.VarType.FP64, value=0)
result = fluid.layers.fill_constant(shape=[1], dtype=core.VarDesc.VarType.FP64, value=0)

ping(pings, msg)
pong(pings, pongs)
fluid.channel_recv(pongs, result)

fluid.channel_close(pings)
fluid.channel_close(pongs)

exe = fluid.Executor(fluid.CPUPlace())
exe.run(fetch_list=[result])
