# An LSTM over time as 2018 scripts stepped one with lstm_unit (fluidc
# only: Paddle 3.3.1 dropped the op): a StaticRNN of six steps with hidden
# and cell memories, forget bias 1.0, the loss the mean of every step's
# hidden state squared, trained by SGD. static_lstm_composed.py writes the
# same cell out of ops Paddle 3.3.1 still has (concat, fc, split, sigmoid,
# tanh) with the same parameter names; tests/lod_rnn.rs compares them.
import numpy as np
import paddle.fluid as fluid
import paddle.fluid.layers as layers

fluid.default_startup_program().random_seed = 4
STEPS, BATCH, INPUT, HIDDEN = 6, 3, 5, 8
rng = np.random.RandomState(8)
inputs = (rng.rand(STEPS, BATCH, INPUT) - 0.5).astype('float32')

x = layers.data(name='x', shape=[STEPS, BATCH, INPUT], append_batch_size=False, dtype='float32')
rnn = layers.StaticRNN()
with rnn.step():
    word = rnn.step_input(x)
    prev_h = rnn.memory(shape=[-1, HIDDEN], batch_ref=word)
    prev_c = rnn.memory(shape=[-1, HIDDEN], batch_ref=word)
    h, c = layers.lstm_unit(x_t=word, hidden_t_prev=prev_h, cell_t_prev=prev_c, forget_bias=1.0)
    rnn.update_memory(prev_h, h)
    rnn.update_memory(prev_c, c)
    rnn.step_output(h)
loss = layers.mean(layers.square(rnn()))
fluid.optimizer.SGD(learning_rate=2.0).minimize(loss)

exe = fluid.Executor(fluid.CPUPlace())
exe.run(fluid.default_startup_program())
losses = []
for k in range(20):
    l, = exe.run(feed={'x': inputs}, fetch_list=[loss])
    losses.append(float(l))
    print(k, l)
assert losses[-1] < losses[0]
