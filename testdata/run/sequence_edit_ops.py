# 1.x's layers that rearrange LoD sequences, as 2018-19 programs used them:
# sequence_reverse (a backward RNN's input), sequence_concat, sequence_slice,
# sequence_reshape, sequence_enumerate (n-gram windows of word ids) and
# sequence_expand_as (a per-sequence vector broadcast over its words), on the
# 1.x docs' examples with their LoD fetched (return_numpy=False), then a
# small tagger trained with SGD through all the ones that have a gradient.
from __future__ import print_function

import numpy as np
import paddle.fluid as fluid


def fmt(values, digits=4):
    form = '%.' + str(digits) + 'f'
    return ' '.join(form % v for v in np.array(values).flatten())


def show(name, t):
    a = np.array(t)
    print(name, a.dtype, a.shape, a.tolist(), t.lod())


place = fluid.CPUPlace()
exe = fluid.Executor(place)

x = fluid.layers.data(name='x', shape=[4], dtype='float32', lod_level=1)
y = fluid.layers.data(name='y', shape=[4], dtype='float32', lod_level=1)
z = fluid.layers.data(name='z', shape=[4], dtype='float32', lod_level=1)
ids = fluid.layers.data(name='ids', shape=[1], dtype='int64', lod_level=1)
rows = fluid.layers.data(name='rows', shape=[2], dtype='float32')

reversed_x = fluid.layers.sequence_reverse(x)
named = fluid.layers.sequence_reverse(x, name='reversed')
joined = fluid.layers.sequence_concat(input=[x, y])
joined3 = fluid.layers.sequence_concat([x, y, z])
offset = fluid.layers.assign(np.array([[0], [1]], dtype='int64'))
length = fluid.layers.assign(np.array([[2], [1]], dtype='int64'))
sliced = fluid.layers.sequence_slice(input=x, offset=offset, length=length)
wide = fluid.layers.sequence_reshape(input=x, new_dim=8)
narrow = fluid.layers.sequence_reshape(x, new_dim=2)
same = fluid.layers.sequence_reshape(x, 4)
bigrams = fluid.layers.sequence_enumerate(input=ids, win_size=2, pad_value=0)
trigrams = fluid.layers.sequence_enumerate(ids, 3, pad_value=-1)
expanded = fluid.layers.sequence_expand_as(x=rows, y=x)
print(reversed_x.shape, named.name, joined.shape, sliced.shape, wide.shape)
print(bigrams.shape, bigrams.stop_gradient, expanded.shape)

xd = fluid.create_lod_tensor(np.arange(24, dtype='float32').reshape(6, 4), [[2, 4]], place)
yd = fluid.create_lod_tensor(-np.arange(12, dtype='float32').reshape(3, 4), [[1, 2]], place)
zd = fluid.create_lod_tensor(np.ones((2, 4), dtype='float32'), [[0, 2]], place)
idd = fluid.create_lod_tensor(np.array([[1], [2], [3], [4], [5]], dtype='int64'),
                              [[3, 2]], place)
rd = np.array([[0.5, -0.5], [1.5, -1.5]], dtype='float32')
fetches = [reversed_x, named, joined, joined3, sliced, wide, narrow, same, bigrams,
           trigrams, expanded]
outs = exe.run(feed={'x': xd, 'y': yd, 'z': zd, 'ids': idd, 'rows': rd},
               fetch_list=fetches, return_numpy=False)
for name, t in zip(['reversed', 'named', 'joined', 'joined3', 'sliced', 'wide', 'narrow',
                    'same', 'bigrams', 'trigrams', 'expanded'], outs):
    show(name, t)

# A sequence shorter than the window, and an empty sequence.
idd2 = fluid.create_lod_tensor(np.array([[7], [8], [9]], dtype='int64'), [[1, 0, 2]], place)
b, t = exe.run(feed={'x': xd, 'y': yd, 'z': zd, 'ids': idd2, 'rows': rd},
               fetch_list=[bigrams, trigrams], return_numpy=False)
show('bigrams2', b)
show('trigrams2', t)

# A tagger: words and their reversal joined, projected, the first two
# steps of each sequence regrouped and pooled, the pooled vector expanded
# back over the words.
train = fluid.Program()
startup = fluid.Program()
startup.random_seed = 11
with fluid.program_guard(train, startup):
    words = fluid.layers.data(name='words', shape=[1], dtype='int64', lod_level=1)
    label = fluid.layers.data(name='label', shape=[1], dtype='int64', lod_level=1)
    emb = fluid.layers.embedding(input=words, size=[16, 4])
    back = fluid.layers.sequence_reverse(emb)
    both = fluid.layers.sequence_concat(input=[emb, back])
    hidden = fluid.layers.fc(input=both, size=6, act='tanh')
    first = fluid.layers.sequence_slice(
        hidden, fluid.layers.assign(np.array([[0], [1], [0]], dtype='int64')),
        fluid.layers.assign(np.array([[2], [2], [1]], dtype='int64')))
    regrouped = fluid.layers.sequence_reshape(first, new_dim=3)
    summary = fluid.layers.sequence_pool(regrouped, pool_type='average')
    context = fluid.layers.sequence_expand_as(summary, emb)
    feature = fluid.layers.concat([emb, context], axis=1)
    predict = fluid.layers.fc(input=feature, size=3, act='softmax')
    loss = fluid.layers.mean(fluid.layers.cross_entropy(input=predict, label=label))
    fluid.optimizer.SGD(learning_rate=0.4).minimize(loss)

exe.run(startup)
wd = fluid.create_lod_tensor(np.array([[1], [4], [2], [7], [3], [9], [5], [11]],
                                      dtype='int64'), [[3, 4, 1]], place)
ld = fluid.create_lod_tensor(np.array([[0], [1], [2], [0], [0], [1], [2], [1]],
                                      dtype='int64'), [[3, 4, 1]], place)
for i in range(4):
    l, r, c = exe.run(train, feed={'words': wd, 'label': ld},
                      fetch_list=[loss, regrouped, context], return_numpy=False)
    print('step', i, fmt(np.array(l)), np.array(r).shape, r.lod(), c.lod())
print('context', fmt(np.array(c)[:3], 3))
