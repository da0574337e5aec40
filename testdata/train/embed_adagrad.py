# Word embeddings averaged into a bag-of-words classifier: embedding +
# reduce_mean + fc, trained with Adagrad on a fixed batch of id sequences.
from __future__ import print_function
import numpy as np
import paddle.fluid as fluid

fluid.default_startup_program().random_seed = 3

VOCAB, EMB, SEQ = 20, 8, 5
rng = np.random.RandomState(2)
ids = rng.randint(0, VOCAB, size=(12, SEQ, 1)).astype('int64')
labels = (ids[:, 0, :] % 2).astype('int64')

words = fluid.layers.data(name='words', shape=[SEQ, 1], dtype='int64')
label = fluid.layers.data(name='label', shape=[1], dtype='int64')
emb = fluid.layers.embedding(input=words, size=[VOCAB, EMB],
                             param_attr=fluid.ParamAttr(name='emb'))
bow = fluid.layers.reduce_mean(emb, dim=1)
logits = fluid.layers.fc(input=bow, size=2)
loss = fluid.layers.softmax_with_cross_entropy(logits=logits, label=label)
avg_loss = fluid.layers.mean(loss)

fluid.optimizer.Adagrad(learning_rate=0.2).minimize(avg_loss)

exe = fluid.Executor(fluid.CPUPlace())
exe.run(fluid.default_startup_program())
for step in range(15):
    l, = exe.run(fluid.default_main_program(),
                 feed={'words': ids, 'label': labels}, fetch_list=[avg_loss])
    print("step", step, "loss", l)
