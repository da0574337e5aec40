# dynamic_lstm as 2018 sequence models trained it, op for op against
# Paddle 3.3.1: embedding -> fc to the four gates -> dynamic_lstm started
# from given hidden and cell states -> last step -> square error, SGD.
import numpy as np
import paddle.fluid as fluid

fluid.default_startup_program().random_seed = 21
HIDDEN = 5
words = fluid.layers.data(name='words', shape=[1], dtype='int64', lod_level=1)
h0 = fluid.layers.data(name='h0', shape=[HIDDEN], dtype='float32')
c0 = fluid.layers.data(name='c0', shape=[HIDDEN], dtype='float32')
target = fluid.layers.data(name='target', shape=[HIDDEN], dtype='float32')
emb = fluid.layers.embedding(input=words, size=[16, 4])
gates = fluid.layers.fc(input=emb, size=4 * HIDDEN)
hidden, _ = fluid.layers.dynamic_lstm(input=gates, size=4 * HIDDEN, h_0=h0, c_0=c0)
last = fluid.layers.sequence_last_step(hidden)
loss = fluid.layers.mean(fluid.layers.square_error_cost(input=last, label=target))
fluid.optimizer.SGD(learning_rate=0.5).minimize(loss)

exe = fluid.Executor(fluid.CPUPlace())
exe.run(fluid.default_startup_program())
rng = np.random.RandomState(3)
seqs = [[1, 2, 3, 4], [5, 6], [7, 8, 9], [10]]
feed = {'words': fluid.create_lod_tensor(seqs, [[4, 2, 3, 1]], fluid.CPUPlace()),
        'h0': (rng.rand(4, HIDDEN) - 0.5).astype('float32'),
        'c0': (rng.rand(4, HIDDEN) - 0.5).astype('float32'),
        'target': (rng.rand(4, HIDDEN) - 0.5).astype('float32')}
for k in range(15):
    l, = exe.run(feed=feed, fetch_list=[loss])
    print(k, l)
