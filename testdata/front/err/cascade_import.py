# One misspelt import: one error, and none for the names it would have bound.
import paddle.fluid as fluid
from paddle.fluid import layerz as layers
import paddle.fluid.layerz as layers2

x = layers.fill_constant(shape=[1], dtype="int64", value=1)
y = layers2.fill_constant(shape=[1], dtype="int64", value=2)
z = layers.elementwise_add(x, y)
