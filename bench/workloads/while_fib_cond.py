# Executor cost per op with a conditional_block in the loop body: @N@
# iterations; even iterations also count into `evens`.
import paddle.fluid as fluid
from paddle.fluid import layers

n = layers.fill_constant(shape=[1], dtype='int64', value=@N@)
i = layers.fill_constant(shape=[1], dtype='int64', value=0)
a = layers.fill_constant(shape=[1], dtype='int64', value=0)
b = layers.fill_constant(shape=[1], dtype='int64', value=1)
t = layers.fill_constant(shape=[1], dtype='int64', value=0)
two = layers.fill_constant(shape=[1], dtype='int64', value=2)
zero = layers.fill_constant(shape=[1], dtype='int64', value=0)
evens = layers.fill_constant(shape=[1], dtype='int64', value=0)
cond = layers.less_than(i, n)
w = layers.While(cond=cond)
with w.block():
    layers.assign(layers.elementwise_add(a, b), output=t)
    layers.assign(b, output=a)
    layers.assign(t, output=b)
    is_even = layers.equal(layers.elementwise_mod(i, two), zero)
    cb = layers.ConditionalBlock([is_even], is_scalar_condition=True)
    with cb.block():
        layers.increment(evens)
    layers.increment(i)
    layers.less_than(i, n, cond=cond)

exe = fluid.Executor(fluid.CPUPlace())
exe.run(fetch_list=[a, evens])
