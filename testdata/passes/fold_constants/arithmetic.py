import paddle.fluid as fluid
a = fluid.layers.fill_constant(shape=[1], dtype='int64', value=3)
b = fluid.layers.fill_constant(shape=[1], dtype='int64', value=4)
c = fluid.layers.fill_constant(shape=[1], dtype='int64', value=3)
d = a * b + c
e = d > 10
unused = fluid.layers.fill_constant(shape=[1], dtype='int64', value=99)
exe = fluid.Executor(fluid.CPUPlace())
exe.run(fetch_list=[d, e])
