# Paddle 3.3.1's side of lstm_unit_steps.py: the same StaticRNN with the
# lstm_unit cell written out as Paddle 1.x's lstm_unit op computes it,
# i, f, o, g = split(fc(concat([x_t, h_prev]))),
# c = sigmoid(f + forget_bias) * c_prev + sigmoid(i) * tanh(g),
# h = sigmoid(o) * tanh(c). The fc is built first after a concat, as
# lstm_unit builds it, so the parameters get the same names and values.
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
    gates = layers.fc(input=layers.concat([word, prev_h], axis=1), size=4 * HIDDEN)
    i, f, o, g = layers.split(gates, num_or_sections=4, dim=1)
    c = layers.elementwise_add(
        layers.elementwise_mul(layers.sigmoid(layers.scale(f, bias=1.0)), prev_c),
        layers.elementwise_mul(layers.sigmoid(i), layers.tanh(g)))
    h = layers.elementwise_mul(layers.sigmoid(o), layers.tanh(c))
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
