# 04: channels, Go and Select (the 2018 CSP design). A goroutine sends the
# first Fibonacci numbers on one channel and then signals on another; the
# main program selects between the two until the signal comes.
#
#     fluidc run examples/scripts/04_channels_select.py
#
import paddle.fluid as fluid
import paddle.fluid.core as core

INT64 = core.VarDesc.VarType.INT64
numbers = fluid.make_channel(dtype=INT64)      # unbuffered: a send waits for its receive
quit = fluid.make_channel(dtype=INT64)

# The producer: a goroutine with its own loop over 10 values.
with fluid.Go():
    a = fluid.layers.fill_constant(shape=[1], dtype='int64', value=0)
    b = fluid.layers.fill_constant(shape=[1], dtype='int64', value=1)
    n = fluid.layers.fill_constant(shape=[1], dtype='int64', value=0)
    ten = fluid.layers.fill_constant(shape=[1], dtype='int64', value=10)
    more = fluid.layers.less_than(x=n, y=ten)
    loop = fluid.layers.While(cond=more)
    with loop.block():
        fluid.channel_send(numbers, a)
        nxt = a + b
        fluid.layers.assign(b, a)
        fluid.layers.assign(nxt, b)
        fluid.layers.increment(x=n, value=1, in_place=True)
        fluid.layers.less_than(x=n, y=ten, cond=more)
    fluid.channel_send(quit, n)

# The consumer: print each number until the producer says it is done.
received = fluid.layers.fill_constant(shape=[1], dtype='int64', value=0)
done = fluid.layers.fill_constant(shape=[1], dtype='bool', value=False)
running = fluid.layers.logical_not(done)
loop = fluid.layers.While(cond=running)
with loop.block():
    with fluid.Select() as select:
        with select.case(fluid.channel_recv, numbers, received):
            fluid.layers.Print(received, message="fib", summarize=1)
        with select.case(fluid.channel_recv, quit, received):
            fluid.layers.assign(fluid.layers.fill_constant([1], 'bool', True), done)
    fluid.layers.logical_not(done, out=running)

exe = fluid.Executor(fluid.CPUPlace())
count, = exe.run(fetch_list=[received])
print("the producer sent", count[0], "numbers")
