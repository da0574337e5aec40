# Go's daisy chain of 1000 goroutines, started by a While loop: each adds one
# to what it receives from its right and passes it left.
import paddle.fluid as fluid
from paddle.fluid import layers

n = layers.fill_constant(shape=[1], dtype='int64', value=1000)
leftmost = fluid.make_channel(dtype='int64')
left = layers.assign(leftmost)
i = layers.fill_constant(shape=[1], dtype='int64', value=0)
cond = layers.less_than(i, n)
w = layers.While(cond=cond)
with w.block():
    mine = layers.assign(left)          # this iteration's copy, like a Go loop variable
    right = fluid.make_channel(dtype='int64')
    with fluid.Go():
        v = layers.fill_constant(shape=[1], dtype='int64', value=0)
        fluid.channel_recv(right, v)
        fluid.channel_send(mine, layers.increment(v, in_place=False))
    layers.assign(right, output=left)
    layers.increment(i)
    layers.less_than(i, n, cond=cond)

one = layers.fill_constant(shape=[1], dtype='int64', value=1)
fluid.channel_send(left, one)
result = layers.fill_constant(shape=[1], dtype='int64', value=0)
fluid.channel_recv(leftmost, result)

exe = fluid.Executor(fluid.CPUPlace())
exe.run(fetch_list=[result])
