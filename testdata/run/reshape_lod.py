# A sequence batch (LoD) through reshape and its kin, as 2018 text models
# wrote them: reshape keeps the LoD (Paddle 3.3.1's kernel keeps it even
# when the rows change), unsqueeze/flatten/squeeze/slice keep it when they
# keep the rows, transpose drops it; sequence_pool after a reshape, trained
# with SGD. A LoD fetch with return_numpy=True raises RuntimeError after
# the program ran (the SGD step is taken).
from __future__ import print_function

import numpy as np
import paddle.fluid as fluid


def fmt(values, digits=4):
    form = '%.' + str(digits) + 'f'
    return ' '.join(form % v for v in np.array(values).flatten())


def weights():
    return np.array(fluid.global_scope().find_var('fc_0.w_0').get_tensor())


place = fluid.CPUPlace()
exe = fluid.Executor(place)

main = fluid.Program()
startup = fluid.Program()
startup.random_seed = 5
with fluid.program_guard(main, startup):
    x = fluid.layers.data(name='x', shape=[6], dtype='float32', lod_level=1)
    x.stop_gradient = False
    words = fluid.layers.reshape(x, shape=[-1, 2, 3])
    same_rows = fluid.layers.reshape(words, shape=[0, 6])
    more_rows = fluid.layers.reshape(x, shape=[-1, 3])
    col = fluid.layers.unsqueeze(x, axes=[1])
    flat = fluid.layers.flatten(col, axis=1)
    flat0 = fluid.layers.flatten(col, axis=0)
    back = fluid.layers.squeeze(col, axes=[1])
    first = fluid.layers.unsqueeze(x, axes=[0])
    turned = fluid.layers.transpose(words, perm=[0, 2, 1])
    part = fluid.layers.slice(x, axes=[1], starts=[0], ends=[2])
    head = fluid.layers.slice(x, axes=[0], starts=[0], ends=[2])
    hidden = fluid.layers.fc(input=same_rows, size=3, act='tanh')
    pooled = fluid.layers.sequence_pool(input=hidden, pool_type='average')
    avg_cost = fluid.layers.mean(fluid.layers.square(pooled))
    fluid.optimizer.SGD(learning_rate=0.5).minimize(avg_cost)

exe.run(startup)
data = np.arange(36, dtype='float32').reshape(6, 6) / 36.0
batch = fluid.create_lod_tensor(data, [[2, 3, 1]], place)
shown = [words, same_rows, more_rows, col, flat, flat0, back, first, turned, part, head]
outs = exe.run(main, feed={'x': batch}, fetch_list=shown + [pooled, avg_cost],
               return_numpy=False)
for v, o in zip(shown, outs):
    print(v.name, np.array(o).shape, o.recursive_sequence_lengths())
print('pooled', np.array(outs[-2]).shape, outs[-2].recursive_sequence_lengths())
print('cost', fmt(np.array(outs[-1])))

grads = exe.run(main, feed={'x': batch},
                fetch_list=[same_rows.name + '@GRAD', words.name + '@GRAD', 'x@GRAD'],
                return_numpy=False)
for g in grads:
    print('grad', np.array(g).shape, g.recursive_sequence_lengths())

# Without LoD in the fetches, numpy arrays as usual.
p, c = exe.run(main, feed={'x': batch}, fetch_list=[pooled, avg_cost])
print('numpy', p.shape, fmt(p), fmt(c))

before = weights()
try:
    exe.run(main, feed={'x': batch}, fetch_list=[avg_cost, hidden])
    print('no error')
except RuntimeError as e:
    print(type(e).__name__)
    print(e)
# The program ran before the fetch failed: SGD took its step.
print('moved', bool(np.abs(weights() - before).max() > 0))
try:
    exe.run(main, feed={'x': batch}, fetch_list=[more_rows])
except Exception as e:
    print(type(e).__name__, str(e).split('.')[0])
