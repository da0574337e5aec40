# reduce_all and reduce_any take bool tensors and dims the input has.
import paddle.fluid as fluid

x = fluid.layers.data(name='x', shape=[3], dtype='float32')
flags = fluid.layers.greater_than(x, fluid.layers.zeros_like(x))
a = fluid.layers.reduce_all(x)
b = fluid.layers.reduce_any(flags, dim=2)
