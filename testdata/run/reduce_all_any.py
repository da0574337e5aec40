# reduce_all / reduce_any as 2019 decoding loops used them: a While loop
# that halves values until none is above a limit (reduce_any of a
# comparison as its condition), and the two reductions over every dim, one
# dim (negative too) and with keep_dim, fetched as numpy bools.
from __future__ import print_function

import numpy as np
import paddle.fluid as fluid

layers = fluid.layers
x = layers.data(name='x', shape=[3], dtype='float32')
limit = layers.fill_constant(shape=[1], dtype='float32', value=1.0)
value = layers.scale(x, scale=1.0)
steps = layers.fill_constant(shape=[1], dtype='int64', value=0)
above = layers.reduce_any(layers.greater_than(value, layers.expand(
    layers.reshape(limit, shape=[1, 1]), expand_times=[4, 3])))
loop = layers.While(cond=above)
with loop.block():
    layers.assign(layers.scale(value, scale=0.5), value)
    layers.increment(steps, value=1, in_place=True)
    layers.assign(layers.reduce_any(layers.greater_than(value, layers.expand(
        layers.reshape(limit, shape=[1, 1]), expand_times=[4, 3]))), above)

positive = layers.greater_than(x, layers.zeros_like(x))
every = layers.reduce_all(positive)
some = layers.reduce_any(positive)
rows_all = layers.reduce_all(positive, dim=1)
cols_any = layers.reduce_any(positive, dim=-2, keep_dim=True)
both = layers.reduce_all(positive, dim=[0, 1])

exe = fluid.Executor(fluid.CPUPlace())
exe.run(fluid.default_startup_program())
data = np.array([[3.0, -1.0, 0.5], [7.5, 2.0, 4.0], [-2.0, -0.5, -3.0],
                 [1.5, 0.25, 9.0]], dtype='float32')
outs = exe.run(feed={'x': data},
               fetch_list=[value, steps, every, some, rows_all, cols_any, both])
names = ['value', 'steps', 'every', 'some', 'rows_all', 'cols_any', 'both']
for name, out in zip(names, outs):
    print(name, out.dtype, out.shape, out.tolist())
