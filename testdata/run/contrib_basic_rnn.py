# 1.6's contrib GRU and LSTM built from plain layers: basic_gru and
# basic_lstm (two layers, with and without initial states, per-sequence
# lengths, bidirectional), their parameters set from numpy after the
# startup program, the outputs and last states fetched, then a few SGD
# steps on a toy regression through them; and BasicGRUUnit /
# BasicLSTMUnit called on one step.
from __future__ import print_function

import numpy as np
import paddle.fluid as fluid
from paddle.fluid.contrib.layers import basic_gru, basic_lstm, BasicGRUUnit, BasicLSTMUnit

batch, steps, in_size, hidden = 3, 4, 5, 6
place = fluid.CPUPlace()
exe = fluid.Executor(place)
rng = np.random.RandomState(11)
x_np = rng.uniform(-1, 1, (batch, steps, in_size)).astype('float32')
lens_np = np.array([4, 2, 3], dtype='int64')
h0_np = rng.uniform(-0.5, 0.5, (2 * 2, batch, hidden)).astype('float32')
c0_np = rng.uniform(-0.5, 0.5, (2 * 2, batch, hidden)).astype('float32')
y_np = rng.uniform(-1, 1, (batch, 1)).astype('float32')


def set_params(program, scope):
    for k, p in enumerate(sorted(program.global_block().all_parameters(), key=lambda p: p.name)):
        n = int(np.prod(p.shape))
        value = (np.sin(np.arange(n) * 0.37 + k) * 0.3).reshape(p.shape).astype('float32')
        scope.find_var(p.name).get_tensor().set(value, place)


def show(name, value):
    value = np.array(value)
    print(name, value.shape, np.round(value.astype('float64'), 4).ravel()[:12].tolist(),
          round(float(value.sum()), 4))


main, startup = fluid.Program(), fluid.Program()
with fluid.program_guard(main, startup):
    x = fluid.layers.data(name='x', shape=[steps, in_size], dtype='float32')
    lens = fluid.layers.data(name='lens', shape=[-1], dtype='int64')
    h0 = fluid.layers.data(name='h0', shape=[4, batch, hidden], dtype='float32',
                           append_batch_size=False)
    c0 = fluid.layers.data(name='c0', shape=[4, batch, hidden], dtype='float32',
                           append_batch_size=False)
    y = fluid.layers.data(name='y', shape=[1], dtype='float32')
    gru_out, gru_last = basic_gru(x, None, hidden, num_layers=2)
    bigru_out, bigru_last = basic_gru(x, h0, hidden, num_layers=2, sequence_length=lens,
                                      bidirectional=True, name='bigru')
    lstm_out, lstm_h, lstm_c = basic_lstm(x, None, None, hidden, num_layers=2,
                                          sequence_length=lens, forget_bias=0.5)
    bilstm_out, bilstm_h, bilstm_c = basic_lstm(x, h0, c0, hidden, num_layers=2,
                                                bidirectional=True, name='bilstm')
    feats = fluid.layers.concat([fluid.layers.reduce_mean(v, dim=1) for v in
                                 [gru_out, bigru_out, lstm_out, bilstm_out]], axis=1)
    pred = fluid.layers.fc(input=feats, size=1,
                           param_attr=fluid.ParamAttr(initializer=fluid.initializer.Constant(0.1)))
    loss = fluid.layers.mean(fluid.layers.square_error_cost(input=pred, label=y))
    test_program = main.clone(for_test=True)
    fluid.optimizer.SGD(learning_rate=0.5).minimize(loss)

params = main.global_block().all_parameters()
print(len(params))
for p in params:
    print(p.name, p.shape)
for v in [gru_out, gru_last, bigru_out, bigru_last, lstm_out, lstm_h, lstm_c, bilstm_out,
          bilstm_h, bilstm_c]:
    print(v.shape)

feed = {'x': x_np, 'lens': lens_np, 'h0': h0_np, 'c0': c0_np, 'y': y_np}
scope = fluid.core.Scope()
with fluid.scope_guard(scope):
    exe.run(startup)
    set_params(main, scope)
    outs = exe.run(test_program, feed=feed,
                   fetch_list=[gru_out, gru_last, bigru_out, bigru_last, lstm_out, lstm_h,
                               lstm_c, bilstm_out, bilstm_h, bilstm_c])
    for name, value in zip(['gru_out', 'gru_last', 'bigru_out', 'bigru_last', 'lstm_out',
                            'lstm_h', 'lstm_c', 'bilstm_out', 'bilstm_h', 'bilstm_c'], outs):
        show(name, value)
    # Two steps: the loss after one update. (Paddle 3.3.1, the peer these
    # scripts are checked against, sometimes turns the weights to ~1e29 at
    # the second update of these While-lowered RNNs; fluidc does not.)
    for step in range(2):
        l, = exe.run(main, feed=feed, fetch_list=[loss])
        print(step, round(float(l[0]), 5))
        if step == 0:  # the parameters after one update
            print([round(float(np.array(scope.find_var(p.name).get_tensor()).sum()), 4)
                   for p in params])

# the units alone, on one step
main, startup = fluid.Program(), fluid.Program()
with fluid.program_guard(main, startup):
    step_x = fluid.layers.data(name='step_x', shape=[in_size], dtype='float32')
    pre_h = fluid.layers.data(name='pre_h', shape=[hidden], dtype='float32')
    pre_c = fluid.layers.data(name='pre_c', shape=[hidden], dtype='float32')
    gru_unit = BasicGRUUnit('gru_unit', hidden, param_attr=fluid.ParamAttr(name='w'))
    lstm_unit = BasicLSTMUnit('lstm_unit', hidden, forget_bias=2.0)
    new_h = gru_unit(step_x, pre_h)
    again = gru_unit(step_x * 0.5, new_h)
    lstm_h1, lstm_c1 = lstm_unit(step_x, pre_h, pre_c)
print(gru_unit.full_name(), lstm_unit.full_name())
print(sorted(p.name for p in main.global_block().all_parameters()))
with fluid.scope_guard(fluid.core.Scope()):
    exe.run(startup)
    set_params(main, fluid.global_scope())
    res = exe.run(main, feed={'step_x': x_np[:, 0], 'pre_h': h0_np[0], 'pre_c': c0_np[0]},
                  fetch_list=[new_h, again, lstm_h1, lstm_c1])
    for name, value in zip(['new_h', 'again', 'lstm_h1', 'lstm_c1'], res):
        show(name, value)
