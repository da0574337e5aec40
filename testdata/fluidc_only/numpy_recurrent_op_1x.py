# What Paddle 1.x printed for recurrent_op_1x.py, computed in numpy after
# 1.x's recurrent_op.cc (run with CPython; tests/lod_rnn.rs compares):
# step t reads row t of each input (row T-1-t when reversed), its ex_states
# are the initial states at the first step and the states of the step
# before after it, and row t of each output is the step's value.
from __future__ import print_function

import numpy as np

T, B, D, H = 4, 3, 5, 2
rng = np.random.RandomState(11)
x_np = rng.uniform(-1, 1, (T, B, D)).astype('float32')
mask_np = (rng.uniform(0, 1, (T, B, 1)) > 0.3).astype('float32')
h0_np = rng.uniform(-0.5, 0.5, (B, H)).astype('float32')
w_np = rng.uniform(-0.7, 0.7, (D, H)).astype('float32')
u_np = rng.uniform(-0.7, 0.7, (H, H)).astype('float32')

for reverse in [False, True]:
    print('reverse', reverse, ['recurrent', 'reduce_sum'])
    hidden = np.zeros((T, B, H), 'float32')
    cell = np.zeros((T, B, H), 'float32')
    h_pre = h0_np
    for step in range(T):
        t = T - 1 - step if reverse else step
        pre = x_np[t].dot(w_np) + h_pre.dot(u_np)
        h = np.tanh(pre)
        m = mask_np[t]
        kept = h * m + h_pre * (m * -1.0 + 1.0)
        hidden[t], cell[t] = kept, pre
        h_pre = kept
    last = hidden.sum(axis=0)
    print(hidden.shape, cell.shape, last.shape)
    print(np.round(hidden, 5).tolist())
    print(np.round(cell[::3], 5).tolist())
    print(np.round(last, 5).tolist())
