# A GRU over time as 2018 scripts stepped one: a StaticRNN whose step
# projects the input to three gates with fc and runs gru_unit on the last
# hidden state (hidden size 8, six steps), the loss the mean of the last
# step's squared error, trained by SGD. Checks gru_unit's kernel, its grad
# through the loop and the layer's parameters against Paddle 3.3.1, which
# varies from run to run on StaticRNNs (see static_rnn_sgd.py): the test
# takes the first losses two of up to seven Paddle runs print.
# peer-runs: 7
import numpy as np
import paddle.fluid as fluid
import paddle.fluid.layers as layers

fluid.default_startup_program().random_seed = 9
STEPS, BATCH, INPUT, HIDDEN = 6, 3, 5, 8
rng = np.random.RandomState(2)
inputs = (rng.rand(STEPS, BATCH, INPUT) - 0.5).astype('float32')
target = (rng.rand(BATCH, HIDDEN) - 0.5).astype('float32')

x = layers.data(name='x', shape=[STEPS, BATCH, INPUT], append_batch_size=False, dtype='float32')
y = layers.data(name='y', shape=[BATCH, HIDDEN], append_batch_size=False, dtype='float32')
rnn = layers.StaticRNN()
with rnn.step():
    word = rnn.step_input(x)
    prev = rnn.memory(shape=[-1, HIDDEN], batch_ref=word)
    gates = layers.fc(input=word, size=3 * HIDDEN)
    hidden, _, _ = layers.gru_unit(input=gates, hidden=prev, size=3 * HIDDEN)
    rnn.update_memory(prev, hidden)
    rnn.step_output(hidden)
out = rnn()
last = layers.slice(out, axes=[0], starts=[STEPS - 1], ends=[STEPS])
loss = layers.mean(layers.square(layers.reshape(last, [BATCH, HIDDEN]) - y))
fluid.optimizer.SGD(learning_rate=1.0).minimize(loss)

exe = fluid.Executor(fluid.CPUPlace())
exe.run(fluid.default_startup_program())
for k in range(20):
    l, = exe.run(feed={'x': inputs, 'y': target}, fetch_list=[loss])
    print(k, l)
