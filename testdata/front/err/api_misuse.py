# Several independent mistakes in calls to the fluid API; each is reported.
import paddle.fluid as fluid

x = fluid.layers.fill_constant(shape=[1], dtype='int64', value=0, bogus=1)
y = fluid.layers.fill_constant(shape=[1], dtype='float128', value=0)
z = fluid.layers.fill_constant([1], 'int64')
w = fluid.layers.no_such_layer(x)
