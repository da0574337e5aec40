# A feed for a name the program lacks (issue 38) is refused as Paddle 1.x
# refused it: Executor._add_feed_fetch_ops looked each fed name up with
# global_block.var(name), whose Block.var raised
# ValueError("var %s not in this block" % name) (python/paddle/fluid/
# executor.py and framework.py, v1.0-v1.5). Paddle 3.3.1 warns and
# ignores the feed, so this runs in fluidc only. After the refusal the
# same executor still runs the program with the right feed.
import numpy as np
import paddle.fluid as fluid
import paddle.fluid.layers as layers

x = layers.data(name='x', shape=[2], dtype='float32')
y = layers.scale(x, scale=2.0)
exe = fluid.Executor(fluid.CPUPlace())
exe.run(fluid.default_startup_program())
ones = np.ones([1, 2], dtype='float32')
for feed in [{'x': ones, 'x_typo': ones}, {'label': ones, 'x': ones}]:
    try:
        exe.run(feed=feed, fetch_list=[y])
    except ValueError as e:
        unknown = [name for name in feed if name != 'x'][0]
        assert str(e) == 'var %s not in this block' % unknown, str(e)
    else:
        raise AssertionError('a feed for a missing variable was accepted')
got, = exe.run(feed={'x': ones}, fetch_list=[y])
assert np.array_equal(got, ones * 2), got
print('ok')
