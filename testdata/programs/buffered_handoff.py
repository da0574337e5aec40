# A goroutine sends 10000 values through a capacity-100 channel while main
# receives and sums them: with two workers the sender is preempted to the
# shared queue many times while the receiver it woke waits on its worker.
# Each run must end with the sum, never with a deadlock report.
import paddle.fluid as fluid
from paddle.fluid import layers

ch = fluid.make_channel(dtype='int64', capacity=100)
n = layers.fill_constant(shape=[1], dtype='int64', value=10000)

with fluid.Go():
    j = layers.fill_constant(shape=[1], dtype='int64', value=0)
    more = layers.less_than(j, n)
    loop = layers.While(cond=more)
    with loop.block():
        fluid.channel_send(ch, j)
        layers.increment(j)
        layers.less_than(j, n, cond=more)

i = layers.fill_constant(shape=[1], dtype='int64', value=0)
v = layers.fill_constant(shape=[1], dtype='int64', value=0)
total = layers.fill_constant(shape=[1], dtype='int64', value=0)
cond = layers.less_than(i, n)
w = layers.While(cond=cond)
with w.block():
    fluid.channel_recv(ch, v)
    layers.assign(layers.elementwise_add(total, v), output=total)
    layers.increment(i)
    layers.less_than(i, n, cond=cond)

exe = fluid.Executor(fluid.CPUPlace())
exe.run(fetch_list=[total])
