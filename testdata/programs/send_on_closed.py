# Sending on a closed channel is an error, as in Go.
import paddle.fluid as fluid

ch = fluid.make_channel(dtype='int64', capacity=1)
x = fluid.layers.fill_constant(shape=[1], dtype='int64', value=1)
fluid.channel_close(ch)
fluid.channel_send(ch, x)
