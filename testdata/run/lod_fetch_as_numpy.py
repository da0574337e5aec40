# 2018 scripts fetched an fc over a sequence batch without return_numpy=False:
# Paddle refuses to make a numpy array of a tensor with LoD, and the uncaught
# RuntimeError stops the script (exit status 1) after what it printed.
from __future__ import print_function

import numpy as np
import paddle.fluid as fluid

place = fluid.CPUPlace()
exe = fluid.Executor(place)
words = fluid.layers.data(name='words', shape=[1], dtype='int64', lod_level=1)
emb = fluid.layers.embedding(input=words, size=[10, 4])
ids = fluid.create_lod_tensor(np.array([[1], [4], [2]], dtype='int64'), [[2, 1]], place)
exe.run(fluid.default_startup_program())
e, = exe.run(feed={'words': ids}, fetch_list=[emb], return_numpy=False)
print(np.array(e).shape, e.recursive_sequence_lengths())
e, = exe.run(feed={'words': ids}, fetch_list=[emb])
print('not reached', e.shape)
