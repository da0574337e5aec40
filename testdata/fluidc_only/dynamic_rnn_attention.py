# The book's machine translation decoder in small (fluidc only: Paddle
# 3.3.1 dropped the LoD ops): a DynamicRNN over the target words whose
# step attends over the source sentence, a static_input of LoD sequences
# (sequence_expand of the state by it, sequence_softmax, a weighted
# sequence_pool), its state booted from the encoder's last step, trained
# with SGD. Prints the first batch's probabilities and the losses;
# static_attention_unrolled.py computes the same in Paddle 3.3.1.
import numpy as np
import paddle.fluid as fluid
from _attention_model import E, NXT, SRC, TRG, V, attr, decoder_step, encoder

src = fluid.layers.data(name='src', shape=[1], dtype='int64', lod_level=1)
trg = fluid.layers.data(name='trg', shape=[1], dtype='int64', lod_level=1)
nxt = fluid.layers.data(name='nxt', shape=[1], dtype='int64', lod_level=1)
enc, enc_proj, boot = encoder(src)
trg_emb = fluid.layers.embedding(input=trg, size=[V, E], param_attr=attr('trg_emb'))

rnn = fluid.layers.DynamicRNN()
with rnn.block():
    word = rnn.step_input(trg_emb)
    enc_vec = rnn.static_input(enc)
    enc_p = rnn.static_input(enc_proj)
    h = rnn.memory(init=boot, need_reorder=True)
    new_h, step_prob = decoder_step(word, enc_vec, enc_p, h)
    rnn.update_memory(h, new_h)
    rnn.output(step_prob)
prob = rnn()
cost = fluid.layers.mean(fluid.layers.cross_entropy(input=prob, label=nxt))
fluid.optimizer.SGD(learning_rate=0.5).minimize(cost)

place = fluid.CPUPlace()
exe = fluid.Executor(place)
exe.run(fluid.default_startup_program())


def lod(seqs):
    return fluid.create_lod_tensor([np.array(s, 'int64').reshape(-1, 1) for s in seqs],
                                   [[len(s) for s in seqs]], place)


feed = {'src': lod(SRC), 'trg': lod(TRG), 'nxt': lod(NXT)}
first, = exe.run(feed=feed, fetch_list=[prob], return_numpy=False)
for row in np.array(first):
    print(' '.join('%.5f' % v for v in row))
losses = []
for step in range(14):
    loss, = exe.run(feed=feed, fetch_list=[cost])
    losses.append(float(np.array(loss).reshape(-1)[0]))
    print(step, '%.5f' % losses[-1])
assert losses[-1] < losses[0], losses
