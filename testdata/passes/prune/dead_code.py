# Unused layers go; a dead store goes; what the fetch needs stays.
import paddle.fluid as fluid

x = fluid.layers.fill_constant(shape=[2], dtype='float32', value=1.5)
y = fluid.layers.fill_constant(shape=[2], dtype='float32', value=2.0)
unused = fluid.layers.elementwise_mul(x, y)
also_unused = fluid.layers.relu(unused)
out = fluid.layers.fill_constant(shape=[2], dtype='float32', value=0.0)   # dead store
fluid.layers.assign(fluid.layers.elementwise_add(x, y), output=out)

exe = fluid.Executor(fluid.CPUPlace())
exe.run(fetch_list=[out])
