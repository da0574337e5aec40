# Executor cost per op: Fibonacci in a While loop of @N@ iterations on
# scalar int64 ops (no channels: Paddle runs the same file).
import paddle.fluid as fluid
from paddle.fluid import layers

n = layers.fill_constant(shape=[1], dtype='int64', value=@N@)
i = layers.fill_constant(shape=[1], dtype='int64', value=0)
a = layers.fill_constant(shape=[1], dtype='int64', value=0)
b = layers.fill_constant(shape=[1], dtype='int64', value=1)
t = layers.fill_constant(shape=[1], dtype='int64', value=0)
cond = layers.less_than(i, n)
w = layers.While(cond=cond)
with w.block():
    layers.assign(layers.elementwise_add(a, b), output=t)
    layers.assign(b, output=a)
    layers.assign(t, output=b)
    layers.increment(i)
    layers.less_than(i, n, cond=cond)

exe = fluid.Executor(fluid.CPUPlace())
exe.run(fetch_list=[a, i])
