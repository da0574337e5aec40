# The main goroutine receives on a channel nobody ever sends on.
import paddle.fluid as fluid

ch = fluid.make_channel(dtype='int64')
x = fluid.layers.fill_constant(shape=[1], dtype='int64', value=0)
fluid.channel_recv(ch, x)
