# Select fan-in: two goroutines send @HALF@ values each; main takes all
# 2 * @HALF@ with a two-case select.
import paddle.fluid as fluid
from paddle.fluid import layers

a = fluid.make_channel(dtype='int64')
b = fluid.make_channel(dtype='int64')
half = layers.fill_constant(shape=[1], dtype='int64', value=@HALF@)
total_n = layers.fill_constant(shape=[1], dtype='int64', value=2 * @HALF@)


def producer(ch):
    with fluid.Go():
        j = layers.fill_constant(shape=[1], dtype='int64', value=0)
        more = layers.less_than(j, half)
        loop = layers.While(cond=more)
        with loop.block():
            fluid.channel_send(ch, j)
            layers.increment(j)
            layers.less_than(j, half, cond=more)


producer(a)
producer(b)

i = layers.fill_constant(shape=[1], dtype='int64', value=0)
from_a = layers.fill_constant(shape=[1], dtype='int64', value=0)
from_b = layers.fill_constant(shape=[1], dtype='int64', value=0)
va = layers.fill_constant(shape=[1], dtype='int64', value=0)
vb = layers.fill_constant(shape=[1], dtype='int64', value=0)
cond = layers.less_than(i, total_n)
w = layers.While(cond=cond)
with w.block():
    with fluid.Select() as select:
        with select.case(fluid.channel_recv, a, va):
            layers.increment(from_a)
        with select.case(fluid.channel_recv, b, vb):
            layers.increment(from_b)
    layers.increment(i)
    layers.less_than(i, total_n, cond=cond)

exe = fluid.Executor(fluid.CPUPlace())
exe.run(fetch_list=[i])
