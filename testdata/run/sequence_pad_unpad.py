# layers.sequence_pad and layers.sequence_unpad as 2019 programs used them
# to hand LoD batches to code that wants fixed-length steps: the 1.x docs'
# cases (a scalar pad value, maxlen, a pad value of one step), int64 ids
# padded with an end id, the padding removed again (its LoD fetched with
# return_numpy=False), and a small text classifier trained with SGD through
# pad -> per-step fc -> unpad -> sum pooling, so the gradient flows back
# through both ops to the embedding.
from __future__ import print_function

import numpy as np
import paddle.fluid as fluid


def fmt(values, digits=4):
    form = '%.' + str(digits) + 'f'
    return ' '.join(form % v for v in np.array(values).flatten())


place = fluid.CPUPlace()
exe = fluid.Executor(place)

x = fluid.layers.data(name='x', shape=[2], dtype='float32', lod_level=1)
ids = fluid.layers.data(name='ids', shape=[1], dtype='int64', lod_level=1)
zero = fluid.layers.fill_constant(shape=[1], dtype='float32', value=0.0)
step = fluid.layers.assign(np.array([-1.0, -2.0], dtype='float32'))
end_id = fluid.layers.fill_constant(shape=[1], dtype='int64', value=9)

padded, length = fluid.layers.sequence_pad(x=x, pad_value=zero)
padded4, length4 = fluid.layers.sequence_pad(x, zero, maxlen=4)
by_step, _ = fluid.layers.sequence_pad(x, step, name='by_step')
padded_ids, id_len = fluid.layers.sequence_pad(ids, end_id, maxlen=5)
restored = fluid.layers.sequence_unpad(x=padded, length=length)
restored_ids = fluid.layers.sequence_unpad(padded_ids, id_len)
print(padded.shape, padded4.shape, length.shape, restored.shape, restored_ids.shape)
print(length.stop_gradient, zero.stop_gradient)

xd = fluid.create_lod_tensor(np.arange(10, dtype='float32').reshape(5, 2) / 2.0,
                             [[2, 3]], place)
idd = fluid.create_lod_tensor(np.array([[3], [1], [4], [1], [5], [9]], dtype='int64'),
                              [[1, 3, 0, 2]], place)
outs = exe.run(feed={'x': xd, 'ids': idd},
               fetch_list=[padded, length, padded4, length4, by_step, padded_ids, id_len,
                           restored, restored_ids],
               return_numpy=False)
names = ['padded', 'length', 'padded4', 'length4', 'by_step', 'padded_ids', 'id_len',
         'restored', 'restored_ids']
for name, t in zip(names, outs):
    a = np.array(t)
    print(name, a.dtype, a.shape, a.tolist(), t.lod())

# A LoD of two levels pads the sequences of level 0 (in rows).
x2 = fluid.create_lod_tensor(np.arange(12, dtype='float32').reshape(6, 2),
                             [[2, 1], [1, 2, 3]], place)
p2, l2 = exe.run(feed={'x': x2, 'ids': idd}, fetch_list=[padded, length])
print('two levels', p2.shape, p2.tolist(), l2.tolist())

# A classifier over padded steps.
train = fluid.Program()
startup = fluid.Program()
startup.random_seed = 3
with fluid.program_guard(train, startup):
    words = fluid.layers.data(name='words', shape=[1], dtype='int64', lod_level=1)
    label = fluid.layers.data(name='label', shape=[1], dtype='int64')
    emb = fluid.layers.embedding(input=words, size=[12, 4])
    pad = fluid.layers.fill_constant(shape=[1], dtype='float32', value=0.0)
    steps, lens = fluid.layers.sequence_pad(emb, pad, maxlen=4)
    proj = fluid.layers.fc(input=steps, size=3, num_flatten_dims=2, act='tanh')
    seq = fluid.layers.sequence_unpad(proj, lens)
    pooled = fluid.layers.sequence_pool(input=seq, pool_type='sum')
    predict = fluid.layers.fc(input=pooled, size=2, act='softmax')
    loss = fluid.layers.mean(fluid.layers.cross_entropy(input=predict, label=label))
    fluid.optimizer.SGD(learning_rate=0.5).minimize(loss)

exe.run(startup)
batch = fluid.create_lod_tensor(np.array([[1], [2], [3], [4], [5], [6], [7], [8], [9]],
                                         dtype='int64'), [[3, 2, 4]], place)
labels = np.array([[0], [1], [0]], dtype='int64')
for i in range(4):
    l, s = exe.run(train, feed={'words': batch, 'label': labels}, fetch_list=[loss, seq],
                   return_numpy=False)
    print('step', i, fmt(np.array(l)), np.array(s).shape, s.lod())
w = np.array(fluid.global_scope().find_var(emb.block.program.global_block()
                                            .all_parameters()[0].name).get_tensor())
print('embedding', fmt(w[:3], 3))

# Text-matching nets of 2019 (MM-DNN) built a step mask from the lengths
# and transposed it: 1.2-1.5's Length is [sequences, 1], so the mask is
# [sequences, 1, maxlen] and its transpose [sequences, maxlen, 1].
mask = fluid.layers.sequence_mask(x=length4, maxlen=4, dtype='float32')
mask_t = fluid.layers.transpose(x=mask, perm=[0, 2, 1])
print(mask.shape, mask_t.shape)
m, = exe.run(feed={'x': xd, 'ids': idd}, fetch_list=[mask_t])
print('mask', m.shape, m[:, :, 0].tolist())
