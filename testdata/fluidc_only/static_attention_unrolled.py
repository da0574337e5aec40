# The peer of dynamic_rnn_attention.py: the same decoder unrolled step by
# step with ops Paddle 3.3.1 has. The sequences are fed in the order of
# the target lengths (longest first, as DynamicRNN's rank table orders
# them), so each step's batch is the first sequences still running: the
# state's first rows (slice) and the encoder's first sequences (slice,
# then lod_reset to their LoD). Prints what dynamic_rnn_attention.py
# prints, its rows put back in the feed's order.
import numpy as np
import paddle.fluid as fluid
from _attention_model import E, NXT, SRC, TRG, V, attr, decoder_step, encoder

rank = sorted(range(len(TRG)), key=lambda k: -len(TRG[k]))
steps = len(TRG[rank[0]])
active = [sum(1 for k in rank if len(TRG[k]) > t) for t in range(steps)]

src = fluid.layers.data(name='src', shape=[1], dtype='int64', lod_level=1)
enc, enc_proj, h = encoder(src)


def first_sequences(x, n):
    lens = [len(SRC[k]) for k in rank[:n]]
    rows = fluid.layers.slice(x, axes=[0], starts=[0], ends=[sum(lens)])
    return fluid.layers.lod_reset(rows, target_lod=list(np.cumsum([0] + lens)))


outs = []
for t in range(steps):
    n = active[t]
    word_ids = fluid.layers.data(name='word_%d' % t, shape=[1], dtype='int64')
    word = fluid.layers.embedding(input=word_ids, size=[V, E], param_attr=attr('trg_emb'))
    enc_vec, enc_p = first_sequences(enc, n), first_sequences(enc_proj, n)
    if t > 0:
        h = fluid.layers.slice(h, axes=[0], starts=[0], ends=[n])
    h, step_prob = decoder_step(word, enc_vec, enc_p, h)
    outs.append(step_prob)
prob = fluid.layers.concat(outs, axis=0)
nxt = fluid.layers.data(name='nxt', shape=[1], dtype='int64')
cost = fluid.layers.mean(fluid.layers.cross_entropy(input=prob, label=nxt))
fluid.optimizer.SGD(learning_rate=0.5).minimize(cost)

place = fluid.CPUPlace()
exe = fluid.Executor(place)
exe.run(fluid.default_startup_program())

feed = {'src': fluid.create_lod_tensor(
    [np.array(SRC[k], 'int64').reshape(-1, 1) for k in rank],
    [[len(SRC[k]) for k in rank]], place)}
# Row of (sequence k, step t) in the feed's order; the steps' rows in
# step order, each step's sequences in rank order.
offset = np.cumsum([0] + [len(s) for s in TRG])
order = []
for t in range(steps):
    ks = rank[:active[t]]
    feed['word_%d' % t] = np.array([[TRG[k][t]] for k in ks], 'int64')
    order.extend(offset[k] + t for k in ks)
feed['nxt'] = np.array([[NXT[k][t]] for t in range(steps) for k in rank[:active[t]]],
                       'int64')
first, = exe.run(feed=feed, fetch_list=[prob])
rows = np.zeros_like(first)
rows[order] = first
for row in rows:
    print(' '.join('%.5f' % v for v in row))
for step in range(14):
    loss, = exe.run(feed=feed, fetch_list=[cost])
    print(step, '%.5f' % float(np.array(loss).reshape(-1)[0]))
