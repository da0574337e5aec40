# Fibonacci with a While loop: increment and less_than(cond=...) re-test the loop condition.
import paddle.fluid as fluid
import paddle.fluid.layers as layers

n = layers.fill_constant(shape=[1], dtype='int64', value=10)
i = layers.fill_constant(shape=[1], dtype='int64', value=0)
a = layers.fill_constant(shape=[1], dtype='int64', value=0)
b = layers.fill_constant(shape=[1], dtype='int64', value=1)

cond = layers.less_than(x=i, y=n)
while_op = layers.While(cond=cond)
with while_op.block():
    c = layers.elementwise_add(a, b)
    layers.assign(b, a)
    layers.assign(c, b)
    layers.increment(x=i, value=1, in_place=True)
    layers.less_than(x=i, y=n, cond=cond)

limit = layers.fill_constant(shape=[1], dtype='int64', value=100)
small = layers.less_than(a, limit)

exe = fluid.Executor(fluid.CPUPlace())
exe.run(fluid.default_startup_program())
fib, steps, ok = exe.run(fluid.default_main_program(), fetch_list=[a, i, small])
