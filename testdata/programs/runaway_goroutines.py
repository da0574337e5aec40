# A runaway run with goroutines: three goroutines wait on a channel nobody
# sends on, while the main goroutine's loop never ends (`cnd=` for `cond=`).
# `--max-steps` and `--timeout` stop it; the blocked goroutines are freed.
import paddle.fluid as fluid
import paddle.fluid.core as core
from paddle.fluid import layers

ch = fluid.make_channel(dtype=core.VarDesc.VarType.LOD_TENSOR)
got = layers.fill_constant(shape=[1], dtype='int64', value=0)
with fluid.Go():
    fluid.channel_recv(ch, got)
with fluid.Go():
    fluid.channel_recv(ch, got)
with fluid.Go():
    fluid.channel_recv(ch, got)

i = layers.fill_constant(shape=[1], dtype='int64', value=0)
n = layers.fill_constant(shape=[1], dtype='int64', value=3)
cond = layers.less_than(i, n)
w = layers.While(cond=cond)
with w.block():
    layers.increment(i)
    layers.less_than(i, n, cnd=cond)

exe = fluid.Executor(fluid.CPUPlace())
exe.run(fetch_list=[i])
