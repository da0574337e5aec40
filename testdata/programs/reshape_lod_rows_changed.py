# A reshape that changes the rows of a sequence batch keeps its LoD (as
# Paddle 3.3.1's reshape kernel does), which then does not describe the
# rows: the sequence_pool that reads it is a runtime error naming it.
import numpy as np
import paddle.fluid as fluid

place = fluid.CPUPlace()
exe = fluid.Executor(place)
x = fluid.layers.data(name='x', shape=[6], dtype='float32', lod_level=1)
halves = fluid.layers.reshape(x, shape=[-1, 3])
pooled = fluid.layers.sequence_pool(halves, pool_type='sum')
batch = fluid.create_lod_tensor(np.ones((6, 6), dtype='float32'), [[2, 3, 1]], place)
h, = exe.run(feed={'x': batch}, fetch_list=[halves], return_numpy=False)
print(np.array(h).shape, h.recursive_sequence_lengths())
p, = exe.run(feed={'x': batch}, fetch_list=[pooled])
