# Paddle 1.6's RNN cell API as its seq2seq examples used it: a GRUCell
# unrolled by fluid.layers.rnn over padded batches with per-sentence
# lengths, an LSTMCell run backwards from its own initial states, and a
# cell of the program's own (an RNNCell subclass); their parameters set
# from numpy, the outputs and last states fetched, then a few SGD steps
# on a toy regression, printing the loss.
from __future__ import print_function

import numpy as np
import paddle.fluid as fluid
import paddle.fluid.layers as layers

batch_size, max_len, emb_dim, hidden = 3, 5, 4, 6


class AddCell(layers.RNNCell):
    """h' = tanh(fc([x, h])); the state is [h, steps taken]."""

    def __init__(self, size):
        self.size = size

    def call(self, inputs, states):
        h, count = states
        new_h = layers.fc(input=[inputs, h], size=self.size, act='tanh',
                          param_attr=[fluid.ParamAttr(name='add_cell_wx'),
                                      fluid.ParamAttr(name='add_cell_wh')],
                          bias_attr=fluid.ParamAttr(name='add_cell_b'))
        return {'h': new_h}, [new_h, count + 1.0]

    @property
    def state_shape(self):
        return [[self.size], [1]]


main, startup = fluid.Program(), fluid.Program()
with fluid.program_guard(main, startup):
    src = layers.data(name='src', shape=[max_len, emb_dim], dtype='float32')
    src_len = layers.data(name='src_len', shape=[-1], dtype='int64', append_batch_size=False)
    label = layers.data(name='label', shape=[1], dtype='float32')

    gru_cell = layers.GRUCell(hidden_size=hidden)
    gru_out, gru_last = layers.rnn(gru_cell, src, sequence_length=src_len)

    lstm_cell = layers.LSTMCell(hidden_size=hidden, forget_bias=0.5, name='enc_lstm')
    init = lstm_cell.get_initial_states(batch_ref=src, init_value=0.1)
    lstm_out, (lstm_h, lstm_c) = layers.rnn(lstm_cell, src, initial_states=init,
                                            is_reverse=True)

    add_cell = AddCell(hidden)
    src_t = layers.transpose(src, [1, 0, 2])
    # Time-major inputs: the initial states take the batch size from src.
    add_init = add_cell.get_initial_states(batch_ref=[src], shape=[[hidden], [-1, 1]],
                                           dtype=['float32', 'float32'])
    add_out, (add_h, add_n) = layers.rnn(add_cell, src_t, initial_states=add_init,
                                         time_major=True, sequence_length=src_len)

    feats = layers.concat([gru_last, lstm_h, lstm_c, add_h,
                           layers.reduce_mean(lstm_out, dim=1)], axis=1)
    pred = layers.fc(input=feats, size=1,
                     param_attr=fluid.ParamAttr(initializer=fluid.initializer.Constant(0.05)))
    loss = layers.mean(layers.square_error_cost(input=pred, label=label))
    test_program = main.clone(for_test=True)
    fluid.optimizer.SGD(learning_rate=0.1).minimize(loss)

for p in main.global_block().all_parameters():
    print(p.name, p.shape)
for v in [gru_out, gru_last, lstm_out, lstm_h, lstm_c, add_out['h'], add_h, add_n]:
    print(v.shape)

place = fluid.CPUPlace()
exe = fluid.Executor(place)
exe.run(startup)
scope = fluid.global_scope()
for k, p in enumerate(sorted(main.global_block().all_parameters(), key=lambda p: p.name)):
    n = int(np.prod(p.shape))
    value = (np.cos(np.arange(n) * 0.41 + k) * 0.35).reshape(p.shape).astype('float32')
    scope.find_var(p.name).get_tensor().set(value, place)

rng = np.random.RandomState(3)
feed = {'src': rng.uniform(-1, 1, (batch_size, max_len, emb_dim)).astype('float32'),
        'src_len': np.array([5, 2, 4], dtype='int64'),
        'label': rng.uniform(-1, 1, (batch_size, 1)).astype('float32')}
outs = exe.run(test_program, feed=feed,
               fetch_list=[gru_out, gru_last, lstm_out, lstm_h, lstm_c, add_out['h'], add_h,
                           add_n])
for name, v in zip(['gru_out', 'gru_last', 'lstm_out', 'lstm_h', 'lstm_c', 'add_out', 'add_h',
                    'add_n'], outs):
    v = np.array(v)
    print(name, v.shape, np.round(v.astype('float64'), 4).ravel()[:8].tolist(),
          round(float(v.sum()), 4))

# SGD steps, each in a scope of its own that starts from the parameters
# the last one left. (Paddle 3.3.1, the peer these scripts are checked
# against, sometimes blows the weights up at the second update of these
# While-lowered RNNs run twice in one scope; fluidc does not.)
values = dict((p.name, np.array(scope.find_var(p.name).get_tensor()))
              for p in main.global_block().all_parameters())
for step in range(4):
    step_scope = fluid.core.Scope()
    with fluid.scope_guard(step_scope):
        exe.run(startup)
        for name, value in values.items():
            step_scope.var(name).get_tensor().set(value, place)
        l, = exe.run(main, feed=feed, fetch_list=[loss])
        values = dict((name, np.array(step_scope.find_var(name).get_tensor()))
                      for name in values)
    print('step %d loss %.5f' % (step, float(np.array(l).ravel()[0])))
print([round(float(values[p.name].sum()), 4) for p in main.global_block().all_parameters()])

# Sentences of any length (1.6's seq2seq feeds [batch, max length in the
# batch] ids): an embedding, then two stacked LSTM cells in one cell of
# the program's own, over two batches of different lengths.


class EncoderCell(layers.RNNCell):
    def __init__(self, num_layers, size):
        self.cells = [layers.LSTMCell(size, name='enc_%d' % i) for i in range(num_layers)]

    def call(self, step_input, states):
        new_states = []
        for cell, state in zip(self.cells, states):
            step_input, new_state = cell(step_input, state)
            new_states.append(new_state)
        return step_input, new_states

    @property
    def state_shape(self):
        return [cell.state_shape for cell in self.cells]


main2, startup2 = fluid.Program(), fluid.Program()
with fluid.program_guard(main2, startup2):
    words = fluid.data(name='words', shape=[None, None], dtype='int64')
    words_len = fluid.data(name='words_len', shape=[None], dtype='int64')
    target = fluid.data(name='target', shape=[None, 1], dtype='float32')
    emb = fluid.embedding(words, size=[10, emb_dim],
                          param_attr=fluid.ParamAttr(name='word_emb'))
    enc_out, enc_states = layers.rnn(EncoderCell(2, hidden), emb, sequence_length=words_len)
    score = layers.fc(input=enc_states[-1][0], size=1,
                      param_attr=fluid.ParamAttr(initializer=fluid.initializer.Constant(0.1)))
    loss2 = layers.mean(layers.square_error_cost(input=score, label=target))
    fluid.optimizer.SGD(learning_rate=0.2).minimize(loss2)
print(emb.shape, enc_out.shape, [[s.shape for s in layer] for layer in enc_states])

# Each batch in a scope of its own, from the parameters the last left
# (as above: Paddle 3.3.1 mis-runs these loops run twice in one scope).
values = {}
for k, p in enumerate(sorted(main2.global_block().all_parameters(), key=lambda p: p.name)):
    n = int(np.prod(p.shape))
    values[p.name] = (np.sin(np.arange(n) * 0.53 + k) * 0.4).reshape(p.shape).astype('float32')
batches = [{'words': np.array([[1, 4, 2, 7, 3], [5, 5, 9, 0, 0]], dtype='int64'),
            'words_len': np.array([5, 3], dtype='int64'),
            'target': np.array([[0.5], [-0.5]], dtype='float32')},
           {'words': np.array([[8, 6, 1], [2, 3, 0], [4, 0, 0]], dtype='int64'),
            'words_len': np.array([3, 2, 1], dtype='int64'),
            'target': np.array([[1.0], [0.0], [-1.0]], dtype='float32')}]
for batch in batches:
    batch_scope = fluid.core.Scope()
    with fluid.scope_guard(batch_scope):
        exe.run(startup2)
        for name, value in values.items():
            batch_scope.var(name).get_tensor().set(value, place)
        out, l = exe.run(main2, feed=batch, fetch_list=[enc_out, loss2])
        values = dict((name, np.array(batch_scope.find_var(name).get_tensor()))
                      for name in values)
    print(np.array(out).shape, round(float(np.array(out).astype('float64').sum()), 4),
          '%.5f' % float(np.array(l).ravel()[0]))
print(sorted((name, round(float(v.sum()), 4)) for name, v in values.items()))
