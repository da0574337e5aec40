# dynamic_gru as 2018 encoders trained it, op for op against Paddle 3.3.1:
# embedding -> fc to three gates -> dynamic_gru from a given first hidden
# state, and a reversed one in origin mode -> both max-pooled per sentence
# -> fc -> square error, Adam. The first GRU starts from data, which takes
# no gradient: Paddle's gru_grad then leaves the first step out of the
# weight's gradient, and fluidc must too.
import numpy as np
import paddle.fluid as fluid

fluid.default_startup_program().random_seed = 17
HIDDEN = 4
words = fluid.layers.data(name='words', shape=[1], dtype='int64', lod_level=1)
h0 = fluid.layers.data(name='h0', shape=[HIDDEN], dtype='float32')
target = fluid.layers.data(name='target', shape=[1], dtype='float32')
emb = fluid.layers.embedding(input=words, size=[16, 6])
fwd = fluid.layers.dynamic_gru(
    input=fluid.layers.fc(input=emb, size=3 * HIDDEN), size=HIDDEN, h_0=h0)
bwd = fluid.layers.dynamic_gru(
    input=fluid.layers.fc(input=emb, size=3 * HIDDEN), size=HIDDEN,
    is_reverse=True, origin_mode=True)
pooled = fluid.layers.concat([fluid.layers.sequence_pool(fwd, 'max'),
                              fluid.layers.sequence_pool(bwd, 'max')], axis=1)
pred = fluid.layers.fc(input=pooled, size=1)
loss = fluid.layers.mean(fluid.layers.square_error_cost(input=pred, label=target))
fluid.optimizer.Adam(learning_rate=0.01).minimize(loss)

exe = fluid.Executor(fluid.CPUPlace())
exe.run(fluid.default_startup_program())
rng = np.random.RandomState(6)
seqs = [[1, 2, 3], [4, 5, 6, 7, 8], [9], [10, 11], [12, 13, 14, 15]]
feed = {'words': fluid.create_lod_tensor(seqs, [[3, 5, 1, 2, 4]], fluid.CPUPlace()),
        'h0': (rng.rand(5, HIDDEN) - 0.5).astype('float32'),
        'target': rng.rand(5, 1).astype('float32')}
for k in range(12):
    l, = exe.run(feed=feed, fetch_list=[loss])
    print(k, l)
