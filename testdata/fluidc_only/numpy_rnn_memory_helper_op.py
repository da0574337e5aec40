# What Paddle 1.x printed for rnn_memory_helper_op.py, computed in numpy
# after 1.x's rnn_memory_helper_op.cc (run with CPython; tests/lod_rnn.rs
# compares): the forward op copies X with its LoD, the grad copies
# Out@GRAD.
from __future__ import print_function

import numpy as np

x_np = (np.arange(6).reshape(2, 3) * 0.25 - 0.5).astype('float32')
dout_np = np.array([[0.5, -1.0, 2.0], [1.5, 0.0, -0.25]], dtype='float32')
print(x_np.tolist(), [[0, 1, 2]])
print(dout_np.tolist(), dout_np.dtype)
