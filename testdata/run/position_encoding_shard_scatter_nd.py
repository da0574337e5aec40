# 1.6's add_position_encoding, shard_index, scatter_nd_add and scatter_nd
# as 2019 models used them: a Transformer-style encoder input (word
# embeddings scaled and given their positions, on a padded batch and on a
# LoD batch), a vocabulary split over two shards, and per-token scores
# accumulated into a bag of words with scatter_nd_add, trained a few SGD
# steps through both gradients.
from __future__ import print_function

import numpy as np
import paddle.fluid as fluid


def fmt(values):
    return ' '.join('%.4f' % v for v in np.array(values).flatten())


main = fluid.Program()
startup = fluid.Program()
startup.random_seed = 11
with fluid.program_guard(main, startup):
    words = fluid.layers.data(name='words', shape=[5, 1], dtype='int64')
    emb = fluid.layers.embedding(words, size=[12, 6], param_attr='word_emb')
    enc = fluid.layers.add_position_encoding(emb, alpha=6 ** 0.5, beta=1.0)
    seq = fluid.layers.data(name='seq', shape=[4], dtype='float64', lod_level=1)
    seq_enc = fluid.layers.add_position_encoding(seq, alpha=0.5, beta=2.0, name='seq_pos')
    shard0 = fluid.layers.shard_index(words, index_num=12, nshards=2, shard_id=0)
    shard1 = fluid.layers.shard_index(words, index_num=12, nshards=2, shard_id=1,
                                      ignore_value=99)
    ids = fluid.layers.data(name='ids', shape=[3, 1], dtype='int64', append_batch_size=False)
    score = fluid.layers.fc(fluid.layers.reshape(enc, [-1, 6]), size=2, param_attr='score_w',
                            bias_attr=False)
    bag = fluid.layers.data(name='bag', shape=[4, 2], dtype='float32', append_batch_size=False)
    bag.stop_gradient = False
    first = fluid.layers.reshape(fluid.layers.slice(score, axes=[0], starts=[0], ends=[3]),
                                 [3, 2])
    added = fluid.layers.scatter_nd_add(bag, ids, first)
    table = fluid.layers.scatter_nd(ids, fluid.layers.fill_constant([3, 2], 'float32', 1.0),
                                    shape=[4, 2])
    loss = fluid.layers.reduce_mean(fluid.layers.square(added))
    fluid.optimizer.SGD(learning_rate=0.1).minimize(loss)
    print(enc.shape, seq_enc.shape, seq_enc.name, shard0.shape, added.shape, table.shape)

exe = fluid.Executor(fluid.CPUPlace())
exe.run(startup)
place = fluid.CPUPlace()
feed = {
    'words': np.array([[3, 7, 0, 11, 5], [6, 2, 9, 1, 8]], dtype='int64').reshape(2, 5, 1),
    'seq': fluid.create_lod_tensor(np.linspace(-1.0, 1.0, 20).reshape(5, 4), [[2, 3]], place),
    'ids': np.array([[0], [2], [0]], dtype='int64'),
    'bag': np.arange(8, dtype='float32').reshape(4, 2) * 0.25,
}
e, s, s0, s1, t = exe.run(main, feed=feed, fetch_list=[enc, seq_enc, shard0, shard1, table],
                          return_numpy=False)
print('enc', np.array(e).shape, fmt(np.array(e)[1, 2]))
print('seq', np.array(s).dtype, s.recursive_sequence_lengths(), fmt(np.array(s)[2:4]))
print('shards', np.array(s0).ravel().tolist(), np.array(s1).ravel().tolist())
print('table', np.array(t).ravel().tolist())
for step in range(3):
    l, a, g = exe.run(main, feed=feed, fetch_list=[loss, added, 'bag@GRAD'])
    print('step %d loss %.4f added %s bag@GRAD %s' % (step, float(l[0]), fmt(a), fmt(g)))
print('word_emb', fmt(np.array(fluid.global_scope().find_var('word_emb').get_tensor())[3]))
