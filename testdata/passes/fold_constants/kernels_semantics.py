# Folding uses the kernels' arithmetic: integer division truncates toward
# zero and FP32 rounds each step.
import paddle.fluid as fluid

a = fluid.layers.fill_constant(shape=[3], dtype='int64', value=-7)
b = fluid.layers.fill_constant(shape=[1], dtype='int64', value=2)
q = fluid.layers.elementwise_div(a, b)
t = fluid.layers.fill_constant(shape=[1], dtype='float32', value=0.1)
s = fluid.layers.scale(t, scale=3.0, bias=0.2)
c = fluid.layers.cast(s, 'int32')

exe = fluid.Executor(fluid.CPUPlace())
exe.run(fetch_list=[q, s, c])
