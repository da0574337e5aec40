# GEMM throughput: @ITERS@ products of two @N@x@N@ float32 matrices by
# `@OP@` in a While loop (the same .pb runs in fluidc and in Paddle; the
# time per product is the difference between two iteration counts).
import paddle.fluid as fluid
from paddle.fluid import layers

x = layers.fill_constant(shape=[@N@, @N@], dtype='float32', value=0.5)
y = layers.fill_constant(shape=[@N@, @N@], dtype='float32', value=0.25)
out = layers.fill_constant(shape=[@N@, @N@], dtype='float32', value=0.0)
i = layers.fill_constant(shape=[1], dtype='int64', value=0)
n = layers.fill_constant(shape=[1], dtype='int64', value=@ITERS@)
cond = layers.less_than(i, n)
w = layers.While(cond=cond)
with w.block():
    layers.assign(layers.@OP@(x, y), output=out)
    layers.increment(i)
    layers.less_than(i, n, cond=cond)
total = layers.reduce_sum(out)

exe = fluid.Executor(fluid.CPUPlace())
exe.run(fetch_list=[total, i])
