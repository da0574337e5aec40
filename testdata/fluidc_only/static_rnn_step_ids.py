# The peer of dynamic_rnn_step_ids.py: the same recurrence as a StaticRNN
# over [steps, batch, 1] word ids, embedded inside the step, which Paddle
# 3.3.1 runs.
import numpy as np
import paddle.fluid as fluid

fluid.default_startup_program().random_seed = 5
fluid.default_main_program().random_seed = 5
T, B, D, H = 3, 4, 5, 6
words = fluid.layers.data(name='words', shape=[1], dtype='int64')
label = fluid.layers.data(name='label', shape=[1], dtype='float32')
steps = fluid.layers.transpose(fluid.layers.reshape(words, [B, T, 1]), perm=[1, 0, 2])
boot = fluid.layers.fill_constant(shape=[B, H], dtype='float32', value=0.0)
rnn = fluid.layers.StaticRNN()
with rnn.step():
    w_t = rnn.step_input(steps)
    x_t = fluid.layers.embedding(input=w_t, size=[20, D])
    h_pre = rnn.memory(init=boot)
    h = fluid.layers.fc(input=[x_t, h_pre], size=H, act='tanh')
    rnn.update_memory(h_pre, h)
    rnn.output(h)
last = fluid.layers.reshape(fluid.layers.slice(rnn(), axes=[0], starts=[T - 1], ends=[T]), [B, H])
logit = fluid.layers.fc(input=last, size=1)
loss = fluid.layers.mean(fluid.layers.sigmoid_cross_entropy_with_logits(x=logit, label=label))
fluid.optimizer.SGD(learning_rate=0.5).minimize(loss)

exe = fluid.Executor(fluid.CPUPlace())
exe.run(fluid.default_startup_program())
ids = (np.arange(B * T) * 7 % 20).reshape(B, T)
feed = {'words': ids.reshape(-1, 1).astype('int64'),
        'label': np.array([[1], [0], [1], [0]], dtype='float32')}
for step in range(20):
    l, = exe.run(fluid.default_main_program(), feed=feed, fetch_list=[loss])
    print(step, '%.5f' % float(np.array(l).reshape(-1)[0]))
