# 1.6's layers.data with None dims (1.6's unittests and seq2seq models
# declare [None, None] ids and [None, hidden] states): a None dim is
# unknown, and the shape then already has its batch dim.
from __future__ import print_function

import numpy as np
import paddle.fluid as fluid

ids = fluid.layers.data(name='ids', shape=[None, None], dtype='int64')
state = fluid.layers.data(name='state', shape=[None, 4], dtype='float32')
plain = fluid.layers.data(name='plain', shape=[4], dtype='float32')
print(ids.shape, state.shape, plain.shape)
total = fluid.layers.reduce_sum(fluid.layers.elementwise_add(state, plain))
exe = fluid.Executor(fluid.CPUPlace())
out, = exe.run(feed={'ids': np.zeros((2, 5), 'int64'),
                     'state': np.ones((3, 4), 'float32'),
                     'plain': np.full((3, 4), 0.5, 'float32')}, fetch_list=[total])
print(out)
