# Equal constants in one block are shared; a fetched one keeps its name.
import paddle.fluid as fluid

one_a = fluid.layers.fill_constant(shape=[1], dtype='int64', value=1)
one_b = fluid.layers.fill_constant(shape=[1], dtype='int64', value=1)
one_c = fluid.layers.fill_constant(shape=[1], dtype='int64', value=1)
two = fluid.layers.fill_constant(shape=[1], dtype='int64', value=2)
s = fluid.layers.elementwise_add(one_a, one_b)
t = fluid.layers.elementwise_add(s, two)

exe = fluid.Executor(fluid.CPUPlace())
exe.run(fetch_list=[t, one_c])
