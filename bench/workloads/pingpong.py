# Unbuffered ping-pong: @N@ round trips between main and one goroutine.
import paddle.fluid as fluid
from paddle.fluid import layers

ping = fluid.make_channel(dtype='int64')
pong = fluid.make_channel(dtype='int64')
n = layers.fill_constant(shape=[1], dtype='int64', value=@N@)

with fluid.Go():
    j = layers.fill_constant(shape=[1], dtype='int64', value=0)
    ball = layers.fill_constant(shape=[1], dtype='int64', value=0)
    more = layers.less_than(j, n)
    loop = layers.While(cond=more)
    with loop.block():
        fluid.channel_recv(ping, ball)
        fluid.channel_send(pong, ball)
        layers.increment(j)
        layers.less_than(j, n, cond=more)

i = layers.fill_constant(shape=[1], dtype='int64', value=0)
got = layers.fill_constant(shape=[1], dtype='int64', value=0)
cond = layers.less_than(i, n)
w = layers.While(cond=cond)
with w.block():
    fluid.channel_send(ping, i)
    fluid.channel_recv(pong, got)
    layers.increment(i)
    layers.less_than(i, n, cond=cond)

exe = fluid.Executor(fluid.CPUPlace())
exe.run(fetch_list=[got])
