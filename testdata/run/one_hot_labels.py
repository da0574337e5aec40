# layers.one_hot as 2018 classifiers used it: int64 labels [N, 1] to
# float32 [N, depth] soft labels for cross_entropy(soft_label=True) after
# an fc softmax, trained with SGD (one_hot stops the gradient), and ids of
# a LoD batch, whose one-hot rows keep the LoD (then pooled per sequence
# into bag-of-words counts).
from __future__ import print_function

import numpy as np
import paddle.fluid as fluid


def fmt(values, digits=4):
    form = '%.' + str(digits) + 'f'
    return ' '.join(form % v for v in np.array(values).flatten())


place = fluid.CPUPlace()
exe = fluid.Executor(place)

main = fluid.Program()
startup = fluid.Program()
startup.random_seed = 7
with fluid.program_guard(main, startup):
    img = fluid.layers.data(name='img', shape=[4], dtype='float32')
    label = fluid.layers.data(name='label', shape=[1], dtype='int64')
    prediction = fluid.layers.fc(input=img, size=3, act='softmax')
    one_hot_label = fluid.layers.one_hot(input=label, depth=3)
    cost = fluid.layers.cross_entropy(prediction, one_hot_label, soft_label=True)
    avg_cost = fluid.layers.mean(x=cost)
    fluid.optimizer.SGD(learning_rate=0.2).minimize(avg_cost)
print(one_hot_label.shape, one_hot_label.name)

exe.run(startup)
rng = np.random.RandomState(1)
for step in range(6):
    x = rng.uniform(0, 1, (8, 4)).astype('float32')
    y = (x[:, :1] > 0.5).astype('int64') + (x[:, 1:2] > 0.5).astype('int64')
    l, oh = exe.run(main, feed={'img': x, 'label': y}, fetch_list=[avg_cost, one_hot_label])
    if step % 2 == 0:
        print('step', step, fmt(l), oh.shape, fmt(oh[:2], 0))

words = fluid.layers.data(name='words', shape=[1], dtype='int64', lod_level=1)
bag = fluid.layers.one_hot(words, 5)
counts = fluid.layers.sequence_pool(input=bag, pool_type='sum')
ids = fluid.create_lod_tensor(np.array([[1], [4], [1], [0], [3], [3]], dtype='int64'),
                              [[3, 1, 2]], place)
b, c = exe.run(feed={'words': ids}, fetch_list=[bag, counts], return_numpy=False)
print(np.array(b).shape, b.recursive_sequence_lengths())
print(np.array(c).tolist())
