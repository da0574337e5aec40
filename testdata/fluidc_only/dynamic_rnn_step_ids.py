# A DynamicRNN whose step input is the word ids, embedded inside the step:
# the ids have no gradient, so the loop's grad op lists one (the step
# input's) that nothing produces, as Paddle's maker does, and skips it.
# The peer, static_rnn_step_ids.py, runs the same recurrence as a
# StaticRNN in Paddle 3.3.1: both print the same losses.
import numpy as np
import paddle.fluid as fluid

fluid.default_startup_program().random_seed = 5
fluid.default_main_program().random_seed = 5
T, B, D, H = 3, 4, 5, 6
words = fluid.layers.data(name='words', shape=[1], dtype='int64', lod_level=1)
label = fluid.layers.data(name='label', shape=[1], dtype='float32')
rnn = fluid.layers.DynamicRNN()
with rnn.block():
    w_t = rnn.step_input(words)
    x_t = fluid.layers.embedding(input=w_t, size=[20, D])
    h_pre = rnn.memory(shape=[H], value=0.0)
    h = fluid.layers.fc(input=[x_t, h_pre], size=H, act='tanh')
    rnn.update_memory(h_pre, h)
    rnn.output(h)
last = fluid.layers.sequence_last_step(input=rnn())
logit = fluid.layers.fc(input=last, size=1)
loss = fluid.layers.mean(fluid.layers.sigmoid_cross_entropy_with_logits(x=logit, label=label))
fluid.optimizer.SGD(learning_rate=0.5).minimize(loss)

exe = fluid.Executor(fluid.CPUPlace())
exe.run(fluid.default_startup_program())
ids = (np.arange(B * T) * 7 % 20).reshape(B, T)
feed = {'words': fluid.create_lod_tensor(ids.reshape(-1, 1).astype('int64'), [[T] * B],
                                         fluid.CPUPlace()),
        'label': np.array([[1], [0], [1], [0]], dtype='float32')}
for step in range(20):
    l, = exe.run(fluid.default_main_program(), feed=feed, fetch_list=[loss])
    print(step, '%.5f' % float(np.array(l).reshape(-1)[0]))
