# Unknown API names (`fluidc check`): a misspelt layer gets the close name from
# fluidc's builtin table, a known gap says whether fluidc plans it, and
# every message points at `fluidc api`.
import numpy as np
import paddle.fluid as fluid

x = fluid.layers.data(name='x', shape=[1], dtype='float32')
y = fluid.layers.elementwize_add(x, x)
z = fluid.layers.fc(input=x, size=2)
fluid.layers.similarity_focus
fluid.layers.deformable_conv
fluid.layers.filter_by_instag
fluid.layerz
np.array([1, 2]).sumx()
