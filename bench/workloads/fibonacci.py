# The Go tour's select Fibonacci: a goroutine takes @N@ values, then quits.
# int64 Fibonacci overflows past 92 terms; it wraps, as in Go.
import paddle.fluid as fluid
from paddle.fluid import layers

ch = fluid.make_channel(dtype='int64')
quit_ch = fluid.make_channel(dtype='int64')
n = layers.fill_constant(shape=[1], dtype='int64', value=@N@)
last = layers.fill_constant(shape=[1], dtype='int64', value=0)

with fluid.Go():
    j = layers.fill_constant(shape=[1], dtype='int64', value=0)
    more = layers.less_than(j, n)
    loop = layers.While(cond=more)
    with loop.block():
        fluid.channel_recv(ch, last)
        layers.increment(j)
        layers.less_than(j, n, cond=more)
    fluid.channel_send(quit_ch, j)

x = layers.fill_constant(shape=[1], dtype='int64', value=0)
y = layers.fill_constant(shape=[1], dtype='int64', value=1)
t = layers.fill_constant(shape=[1], dtype='int64', value=0)
q = layers.fill_constant(shape=[1], dtype='int64', value=0)
running = layers.fill_constant(shape=[1], dtype='bool', value=True)
w = layers.While(cond=running)
with w.block():
    with fluid.Select() as select:
        with select.case(fluid.channel_send, ch, x):
            layers.assign(x, output=t)
            layers.assign(y, output=x)
            layers.assign(layers.elementwise_add(t, y), output=y)
        with select.case(fluid.channel_recv, quit_ch, q):
            layers.assign(layers.fill_constant(shape=[1], dtype='bool', value=False), output=running)

exe = fluid.Executor(fluid.CPUPlace())
exe.run(fetch_list=[q])
