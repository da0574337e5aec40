# Effects stay without any fetch: channel ops, Print, writes to persistable
# variables, and loops whose bodies hold them. A loop with no effect and no
# needed output goes, and the blocks after it are renumbered.
import paddle.fluid as fluid

counter = fluid.layers.create_global_var(shape=[1], value=0, dtype='int64', persistable=True)
i = fluid.layers.fill_constant(shape=[1], dtype='int64', value=0)
n = fluid.layers.fill_constant(shape=[1], dtype='int64', value=3)

dead_cond = fluid.layers.less_than(i, n)
dead_loop = fluid.layers.While(cond=dead_cond)
with dead_loop.block():
    j = fluid.layers.increment(i, in_place=False)
    fluid.layers.less_than(j, n, cond=dead_cond)

ch = fluid.make_channel(dtype='int64', capacity=1)
cond = fluid.layers.less_than(i, n)
loop = fluid.layers.While(cond=cond)
with loop.block():
    fluid.layers.increment(i)
    fluid.layers.increment(counter)
    fluid.layers.Print(i)
    fluid.layers.less_than(i, n, cond=cond)
fluid.channel_send(ch, i)
