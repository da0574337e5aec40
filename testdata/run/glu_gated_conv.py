# A gated convolutional text classifier (Dauphin et al.'s GLU, as 2018
# scripts wrote it with fluid.nets.glu) over padded sentences: an
# embedding, a conv2d over windows of 3 words with twice the channels,
# gated back to half by glu along the channels, max-pooled over time, a
# fc layer gated by glu along its last axis, a softmax; a few SGD steps
# on fixed sentences. Then glu on its own along a negative axis.
from __future__ import print_function

import numpy as np
import paddle.fluid as fluid

SEQ_LEN, EMB_DIM, CHANNELS = 7, 8, 6

fluid.default_startup_program().random_seed = 7
fluid.default_main_program().random_seed = 7

words = fluid.layers.data(name='words', shape=[SEQ_LEN, 1], dtype='int64')
label = fluid.layers.data(name='label', shape=[1], dtype='int64')
emb = fluid.layers.embedding(input=words, size=[40, EMB_DIM])
emb = fluid.layers.reshape(emb, shape=[-1, 1, SEQ_LEN, EMB_DIM])
conv = fluid.layers.conv2d(input=emb, num_filters=2 * CHANNELS, filter_size=(3, EMB_DIM))
gated = fluid.nets.glu(input=conv, dim=1)
print(conv.shape, gated.shape)
pooled = fluid.layers.pool2d(input=gated, pool_type='max', global_pooling=True)
hidden = fluid.nets.glu(fluid.layers.fc(input=pooled, size=10))
print(hidden.shape)
prediction = fluid.layers.fc(input=hidden, size=2, act='softmax')
avg_cost = fluid.layers.mean(fluid.layers.cross_entropy(input=prediction, label=label))
fluid.optimizer.SGD(learning_rate=0.5).minimize(avg_cost)

image = fluid.layers.data(name='image', shape=[3, 4, 2], dtype='float32')
rows = fluid.nets.glu(input=image, dim=-2)
print(rows.shape)

place = fluid.CPUPlace()
exe = fluid.Executor(place)
exe.run(fluid.default_startup_program())
sentences = [[1, 2, 3, 4, 5], [6, 7, 8], [9, 10], [11, 12, 13, 14, 15, 16, 3],
             [17, 18, 19, 2], [20, 21, 7]]
ids = np.zeros((len(sentences), SEQ_LEN, 1), dtype='int64')
for i, s in enumerate(sentences):
    ids[i, :len(s), 0] = s
labels = np.array([[1], [0], [1], [0], [1], [0]], dtype='int64')
np.random.seed(3)
x = np.random.uniform(-2, 2, size=(len(sentences), 3, 4, 2)).astype('float32')
for step in range(6):
    loss, probs, r = exe.run(feed={'words': ids, 'label': labels, 'image': x},
                             fetch_list=[avg_cost, prediction, rows])
    print(step, '%.5f' % np.array(loss)[0], np.round(probs[:3, 1], 4))
print(r.shape)
print(np.round(r[1, 0], 4))
