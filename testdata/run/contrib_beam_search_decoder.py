# fluid.contrib.decoder as 2018's seq2seq programs used it: a StateCell
# whose updater is one fc over [previous state, current word], started
# from the encoder's last step (InitState, need_reorder=True); a
# TrainingDecoder (a DynamicRNN over the target words) trained a few
# steps with SGD, then a BeamSearchDecoder (While loop, topk, beam_search,
# beam_search_decode) that decodes two sources with the trained cell.
# All weights are fixed so the numbers are the same everywhere.
from __future__ import print_function

import numpy as np
import paddle.fluid as fluid
import paddle.fluid.layers as layers
from paddle.fluid.contrib.decoder.beam_search_decoder import *

dict_size = 7
word_dim = 3
hidden = 4


def fixed(shape, a, b):
    n = int(np.prod(shape))
    return (((np.arange(n) * a) % 11 - b) / 4.0).reshape(shape).astype('float32')


def attr(name, shape, a, b):
    return fluid.ParamAttr(name=name, initializer=fluid.initializer.NumpyArrayInitializer(
        fixed(shape, a, b)))


def encoder():
    src = layers.data(name='src', shape=[1], dtype='int64', lod_level=1)
    emb = layers.embedding(input=src, size=[dict_size, word_dim],
                           param_attr=attr('src_emb', [dict_size, word_dim], 5, 5))
    proj = layers.fc(input=emb, size=hidden, act='tanh',
                     param_attr=attr('enc_w', [word_dim, hidden], 3, 4), bias_attr=False)
    return layers.sequence_last_step(input=proj)


def state_cell(context):
    h = InitState(init=context, need_reorder=True)
    cell = StateCell(inputs={'x': None}, states={'h': h}, out_state='h')

    @cell.state_updater
    def updater(cell):
        word = cell.get_input('x')
        prev_h = cell.get_state('h')
        h = layers.fc(input=[prev_h, word], size=hidden, act='tanh',
                      param_attr=[attr('cell_h', [hidden, hidden], 7, 6),
                                  attr('cell_x', [word_dim, hidden], 4, 5)],
                      bias_attr=False)
        cell.set_state('h', h)

    return cell


def lod_tensor(seqs, place):
    flat = np.array([w for s in seqs for w in s], dtype='int64').reshape(-1, 1)
    return fluid.create_lod_tensor(flat, [[len(s) for s in seqs]], place)


place = fluid.CPUPlace()
exe = fluid.Executor(place)

train_prog, train_startup = fluid.Program(), fluid.Program()
with fluid.program_guard(train_prog, train_startup):
    cell = state_cell(encoder())
    trg = layers.data(name='trg', shape=[1], dtype='int64', lod_level=1)
    trg_emb = layers.embedding(input=trg, size=[dict_size, word_dim],
                               param_attr=attr('trg_emb', [dict_size, word_dim], 2, 3))
    decoder = TrainingDecoder(cell)
    with decoder.block():
        word = decoder.step_input(trg_emb)
        decoder.state_cell.compute_state(inputs={'x': word})
        score = layers.fc(input=decoder.state_cell.get_state('h'), size=dict_size,
                          act='softmax', param_attr=attr('out_w', [hidden, dict_size], 3, 5),
                          bias_attr=False)
        decoder.state_cell.update_states()
        decoder.output(score)
    label = layers.data(name='next', shape=[1], dtype='int64', lod_level=1)
    avg_cost = layers.mean(layers.cross_entropy(input=decoder(), label=label))
    fluid.optimizer.SGD(learning_rate=0.5).minimize(avg_cost)

srcs = [[2, 3, 4], [5, 6], [3, 2, 2, 6]]
trgs = [[0, 4, 5], [0, 6, 3, 2], [0, 2]]
nexts = [[4, 5, 1], [6, 3, 2, 1], [2, 1]]
exe.run(train_startup)
for step in range(4):
    loss, out = exe.run(train_prog, feed={'src': lod_tensor(srcs, place),
                                          'trg': lod_tensor(trgs, place),
                                          'next': lod_tensor(nexts, place)},
                        fetch_list=[avg_cost, decoder()], return_numpy=False)
    print('step %d loss %.5f' % (step, np.array(loss).reshape(-1)[0]))
print('rnn output lod', out.lod(), 'shape', np.array(out).shape)
print(np.round(np.array(out)[:3], 4))

infer_prog, infer_startup = fluid.Program(), fluid.Program()
with fluid.program_guard(infer_prog, infer_startup):
    cell = state_cell(encoder())
    init_ids = layers.data(name='init_ids', shape=[1], dtype='int64', lod_level=2)
    init_scores = layers.data(name='init_scores', shape=[1], dtype='float32', lod_level=2)
    decoder = BeamSearchDecoder(state_cell=cell, init_ids=init_ids, init_scores=init_scores,
                                target_dict_dim=dict_size, word_dim=word_dim,
                                input_var_dict={}, topk_size=3, sparse_emb=False,
                                max_len=5, beam_size=2, end_id=1)
    decoder.decode()
    ids, scores = decoder()

# The decoder's own embedding and softmax fc take fixed values; the cell
# and the encoder keep what training learned (same parameter names).
scope = fluid.global_scope()
trained = set(p.name for p in train_prog.global_block().all_parameters())
new_params = sorted(p.name for p in infer_prog.global_block().all_parameters()
                    if p.name not in trained)
print('decoder parameters', len(new_params))
saved = dict((n, np.array(scope.find_var(n).get_tensor())) for n in sorted(trained))
exe.run(infer_startup)
for n, v in saved.items():
    scope.find_var(n).get_tensor().set(v, place)
for k, n in enumerate(new_params):
    shape = infer_prog.global_block().var(n).shape
    scope.find_var(n).get_tensor().set(fixed(shape, 3 + 2 * k, 4 + k), place)

batch = 2
lod = [[1] * batch, [1] * batch]
result_ids, result_scores = exe.run(
    infer_prog,
    feed={'src': lod_tensor(srcs[:batch], place),
          'init_ids': fluid.create_lod_tensor(np.zeros((batch, 1), 'int64'), lod, place),
          'init_scores': fluid.create_lod_tensor(np.ones((batch, 1), 'float32'), lod, place)},
    fetch_list=[ids, scores], return_numpy=False)
print('ids lod', result_ids.lod())
print('ids', np.array(result_ids).reshape(-1).tolist())
print('scores', ' '.join('%.4f' % v for v in np.array(result_scores).reshape(-1)))
