# A StaticRNN as 2018 scripts wrote one: five steps of h = tanh(fc([x_t, h]))
# over a time-major input, hidden size 16, the loss the mean of every
# step's output, trained by SGD. Paddle 3.3.1 has no `recurrent` op, so
# fluidc (and the shim) lower StaticRNN onto While: this checks the two
# build the same program and train it to the same losses.
# Paddle 3.3.1 varies on this program from run to run (one run in a few
# prints other losses from step 2, or nan: it reads memory it never
# wrote), so the test takes the first losses two of up to seven Paddle
# runs print.
# peer-runs: 7
import numpy as np
import paddle.fluid as fluid
import paddle.fluid.layers as layers

fluid.default_startup_program().random_seed = 5
STEPS, BATCH, INPUT, HIDDEN = 5, 4, 8, 16
rng = np.random.RandomState(11)
inputs = rng.rand(STEPS, BATCH, INPUT).astype('float32') - 0.5

x = layers.data(name='x', shape=[STEPS, BATCH, INPUT], append_batch_size=False, dtype='float32')
rnn = layers.StaticRNN()
with rnn.step():
    word = rnn.step_input(x)
    prev = rnn.memory(shape=[-1, HIDDEN], batch_ref=word)
    hidden = layers.fc(input=[word, prev], size=HIDDEN, act='tanh')
    rnn.update_memory(prev, hidden)
    rnn.step_output(hidden)
out = rnn()
loss = layers.mean(out)
fluid.optimizer.SGD(learning_rate=0.5).minimize(loss)

exe = fluid.Executor(fluid.CPUPlace())
exe.run(fluid.default_startup_program())
for k in range(20):
    l, = exe.run(feed={'x': inputs}, fetch_list=[loss])
    print(k, l)
print(out.shape)
