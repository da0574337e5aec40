# A While condition must be one bool Variable.
import paddle.fluid as fluid
import paddle.fluid.layers as layers

i = layers.zeros(shape=[2], dtype='int64')
limit = layers.fill_constant(shape=[2], dtype='int64', value=1)
pair = layers.less_than(x=i, y=limit)
a = layers.While(cond=pair)
b = layers.While(cond=layers.cast(pair, dtype='float64'))
