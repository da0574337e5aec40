import paddle.fluid as fluid

x = fluid.layers.fill_constant(shape=[1], dtype='int64', value=(3
