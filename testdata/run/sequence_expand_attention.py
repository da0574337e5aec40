# layers.sequence_expand as 2018 scripts used it: the LoD examples of the
# 1.x docs (x with LoD expanded by y's level 0, rows of a plain x by y's
# last level, a sequence repeated zero times, a name) and the book's
# machine translation attention (a decoder state expanded over each
# source sequence, added to the encoder projection, scored by fc,
# sequence_softmax and sequence_pool), trained with SGD so the gradient
# flows back through sequence_expand to the state's fc.
from __future__ import print_function

import numpy as np
import paddle.fluid as fluid


def fmt(values, digits=4):
    form = '%.' + str(digits) + 'f'
    return ' '.join(form % v for v in np.array(values).flatten())


place = fluid.CPUPlace()
exe = fluid.Executor(place)

x = fluid.layers.data(name='x', shape=[2], dtype='float32', lod_level=1)
rows = fluid.layers.data(name='rows', shape=[2], dtype='float32')
y = fluid.layers.data(name='y', shape=[1], dtype='float32', lod_level=2)
by_level0 = fluid.layers.sequence_expand(x=x, y=y, ref_level=0)
by_last = fluid.layers.sequence_expand(rows, y)
named = fluid.layers.sequence_expand(rows, y, name='expanded')
print(by_level0.shape, by_last.shape, by_level0.name, named.name)

xd = fluid.create_lod_tensor(np.arange(8, dtype='float32').reshape(4, 2), [[1, 3]], place)
rd = np.array([[1, -1], [2, -2], [3, -3], [4, -4]], dtype='float32')
yd = fluid.create_lod_tensor(np.zeros((6, 1), dtype='float32'), [[2, 2], [1, 2, 0, 3]], place)
a, b = exe.run(feed={'x': xd, 'rows': rd, 'y': yd}, fetch_list=[by_level0, by_last],
               return_numpy=False)
print(np.array(a).tolist(), a.recursive_sequence_lengths())
print(np.array(b).tolist(), b.recursive_sequence_lengths())

# Level 0 of y repeats x's first sequence 0 times and its second 3 times.
y2 = fluid.create_lod_tensor(np.zeros((3, 1), dtype='float32'), [[0, 3], [1, 1, 1]], place)
a, = exe.run(feed={'x': xd, 'rows': rd[:3], 'y': y2}, fetch_list=[by_level0],
             return_numpy=False)
print(np.array(a).tolist(), a.recursive_sequence_lengths())

# Attention over source sequences of 3, 1 and 2 words.
train = fluid.Program()
startup = fluid.Program()
startup.random_seed = 5
with fluid.program_guard(train, startup):
    src = fluid.layers.data(name='src', shape=[4], dtype='float32', lod_level=1)
    state = fluid.layers.data(name='state', shape=[3], dtype='float32')
    target = fluid.layers.data(name='target', shape=[4], dtype='float32')
    enc_proj = fluid.layers.fc(input=src, size=5, bias_attr=False)
    state_proj = fluid.layers.fc(input=state, size=5, bias_attr=False,
                                 param_attr='state_w')
    expanded = fluid.layers.sequence_expand(x=state_proj, y=enc_proj)
    mixed = fluid.layers.tanh(fluid.layers.elementwise_add(enc_proj, expanded))
    weights = fluid.layers.sequence_softmax(
        fluid.layers.fc(input=mixed, size=1, bias_attr=False))
    scaled = fluid.layers.elementwise_mul(x=src, y=weights, axis=0)
    context = fluid.layers.sequence_pool(input=scaled, pool_type='sum')
    loss = fluid.layers.mean(fluid.layers.square_error_cost(input=context, label=target))
    fluid.optimizer.SGD(learning_rate=0.5).minimize(loss)

exe.run(startup)
w0 = np.array(fluid.global_scope().find_var('state_w').get_tensor())
rng = np.random.RandomState(3)
srcd = fluid.create_lod_tensor(rng.uniform(-1, 1, (6, 4)).astype('float32'), [[3, 1, 2]], place)
stated = rng.uniform(-1, 1, (3, 3)).astype('float32')
targetd = rng.uniform(-1, 1, (3, 4)).astype('float32')
for step in range(8):
    l, w = exe.run(train, feed={'src': srcd, 'state': stated, 'target': targetd},
                   fetch_list=[loss, weights], return_numpy=False)
    if step % 2 == 0:
        print('step', step, fmt(np.array(l)), fmt(np.array(w), 3), w.lod())
w1 = np.array(fluid.global_scope().find_var('state_w').get_tensor())
print('state_w moved by', fmt(w1 - w0, 5))
