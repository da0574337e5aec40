# `cnd=` for `cond=`: Paddle's less_than drops unknown keywords, so the loop's
# condition is never updated and the loop never ends. fluidc warns.
import paddle.fluid as fluid
from paddle.fluid import layers

i = layers.fill_constant(shape=[1], dtype='int64', value=0)
n = layers.fill_constant(shape=[1], dtype='int64', value=3)
cond = layers.less_than(i, n)
w = layers.While(cond=cond)
with w.block():
    layers.increment(i)
    layers.less_than(i, n, cnd=cond)

exe = fluid.Executor(fluid.CPUPlace())
exe.run(fetch_list=[i])
