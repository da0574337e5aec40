# Two goroutines each wait for the other; main waits for both.
import paddle.fluid as fluid

a = fluid.make_channel(dtype='int64')
b = fluid.make_channel(dtype='int64')
done = fluid.make_channel(dtype='int64')
x = fluid.layers.fill_constant(shape=[1], dtype='int64', value=0)
y = fluid.layers.fill_constant(shape=[1], dtype='int64', value=0)

with fluid.Go():
    fluid.channel_recv(a, x)
    fluid.channel_send(b, x)

with fluid.Go():
    fluid.channel_recv(b, y)
    fluid.channel_send(a, y)

fluid.channel_recv(done, x)
