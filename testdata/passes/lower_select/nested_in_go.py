# A select inside a goroutine inside a While: the cases block's parent is
# the goroutine's block, and the bodies move under the cases block.
import paddle.fluid as fluid

data = fluid.make_channel(dtype='int64', capacity=2)
done = fluid.make_channel(dtype='bool')
got = fluid.layers.fill_constant(shape=[1], dtype='int64', value=0)
flag = fluid.layers.fill_constant(shape=[1], dtype='bool', value=False)

with fluid.Go():
    with fluid.Select() as select:
        with select.case(fluid.channel_recv, data, got):
            fluid.layers.increment(got)
        with select.case(fluid.channel_recv, done, flag):
            pass
