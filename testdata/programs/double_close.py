# Closing a channel twice is an error, as in Go (2018 Paddle ignored it).
import paddle.fluid as fluid

ch = fluid.make_channel(dtype='int64')
fluid.channel_close(ch)
fluid.channel_close(ch)
