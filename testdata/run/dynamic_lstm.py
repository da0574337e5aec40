# An LSTM over LoD sequences as 2018 text classifiers ran one: embedding,
# an fc projection to the four gates, dynamic_lstm (peepholes, and a
# reversed one without), max-pooled per sentence, a sigmoid classifier
# trained with Adam. Prints the hidden states of a first batch, then the
# losses.
import numpy as np
import paddle.fluid as fluid

fluid.default_startup_program().random_seed = 12
fluid.default_main_program().random_seed = 12
HIDDEN = 6

words = fluid.layers.data(name='words', shape=[1], dtype='int64', lod_level=1)
label = fluid.layers.data(name='label', shape=[1], dtype='float32')
emb = fluid.layers.embedding(input=words, size=[20, 5])
proj = fluid.layers.fc(input=emb, size=4 * HIDDEN, bias_attr=False)
forward, cell = fluid.layers.dynamic_lstm(input=proj, size=4 * HIDDEN)
back_proj = fluid.layers.fc(input=emb, size=4 * HIDDEN, bias_attr=False)
backward, _ = fluid.layers.dynamic_lstm(
    input=back_proj, size=4 * HIDDEN, use_peepholes=False, is_reverse=True,
    candidate_activation='relu')
pooled = fluid.layers.sequence_pool(
    input=fluid.layers.concat([forward, backward], axis=1), pool_type='max')
logit = fluid.layers.fc(input=pooled, size=1)
loss = fluid.layers.mean(
    fluid.layers.sigmoid_cross_entropy_with_logits(x=logit, label=label))
fluid.optimizer.Adam(learning_rate=0.05).minimize(loss)
print(forward.shape, cell.shape)

exe = fluid.Executor(fluid.CPUPlace())
exe.run(fluid.default_startup_program())
seqs = [[1, 2, 3], [4, 5], [6, 7, 8, 9, 10], [11], [12, 13, 14]]
feed = {'words': fluid.create_lod_tensor(seqs, [[3, 2, 5, 1, 3]], fluid.CPUPlace()),
        'label': np.array([[1], [0], [1], [0], [1]], dtype='float32')}
h, c = exe.run(feed=feed, fetch_list=[forward, cell], return_numpy=False)
print(h.lod())
print(np.round(np.array(h), 4))
print(np.round(np.array(c)[:4], 4))
for k in range(10):
    l, = exe.run(feed=feed, fetch_list=[loss])
    print(k, '%.4f' % float(np.array(l).reshape(-1)[0]))
