# Folding uses the kernels' arithmetic: integer division truncates toward
# zero, FP32 rounds each step, and a division by zero is left to run time.
import paddle.fluid as fluid

a = fluid.layers.fill_constant(shape=[3], dtype='int64', value=-7)
b = fluid.layers.fill_constant(shape=[1], dtype='int64', value=2)
q = fluid.layers.elementwise_div(a, b)
zero = fluid.layers.fill_constant(shape=[1], dtype='int64', value=0)
kept = fluid.layers.elementwise_div(a, zero)
t = fluid.layers.fill_constant(shape=[1], dtype='float32', value=0.1)
s = fluid.layers.scale(t, scale=3.0, bias=0.2)
c = fluid.layers.cast(s, 'int32')

exe = fluid.Executor(fluid.CPUPlace())
exe.run(fetch_list=[q, kept, s, c])
