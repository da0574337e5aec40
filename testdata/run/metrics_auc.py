# A small binary classifier (two softmax classes over 4 features) trained
# a few SGD steps, then evaluated batch by batch, as 2018-19 scripts did,
# with fluid.metrics.Auc over the fetched probabilities (update per batch,
# eval after each), the batches read through fluid.io.batch; then Auc on
# numpy predictions with fewer thresholds, and its bad-input errors.
from __future__ import print_function

import numpy as np
import paddle.fluid as fluid

fluid.default_startup_program().random_seed = 11
fluid.default_main_program().random_seed = 11

x = fluid.layers.data(name='x', shape=[4], dtype='float32')
y = fluid.layers.data(name='y', shape=[1], dtype='int64')
hidden = fluid.layers.fc(input=x, size=8, act='tanh')
predict = fluid.layers.fc(input=hidden, size=2, act='softmax')
avg_cost = fluid.layers.mean(fluid.layers.cross_entropy(input=predict, label=y))
test_program = fluid.default_main_program().clone(for_test=True)
fluid.optimizer.SGD(learning_rate=0.3).minimize(avg_cost)

rng = np.random.RandomState(5)
features = rng.uniform(-1, 1, size=(60, 4)).astype('float32')
targets = (features[:, 0] + 0.5 * features[:, 1] - features[:, 3] + rng.normal(0, 0.4, 60) > 0)
targets = targets.astype('int64').reshape(-1, 1)


def sample_reader():
    for i in range(len(features)):
        yield features[i], targets[i]


place = fluid.CPUPlace()
exe = fluid.Executor(place)
exe.run(fluid.default_startup_program())
feeder = fluid.DataFeeder(feed_list=[x, y], place=place)
train_reader = fluid.io.batch(sample_reader, batch_size=16, drop_last=True)
print([len(b) for b in train_reader()], [len(b) for b in fluid.io.batch(sample_reader, 16)()])
for pass_id in range(3):
    for batch_id, data in enumerate(train_reader()):
        loss, = exe.run(feed=feeder.feed(data), fetch_list=[avg_cost])
    print('pass', pass_id, '%.5f' % np.array(loss)[0])

auc_metric = fluid.metrics.Auc('auc')
print(str(auc_metric), fluid.metrics.Auc(None).get_config()['name'])
for batch_id, data in enumerate(fluid.io.batch(sample_reader, batch_size=25)()):
    probs, = exe.run(test_program, feed=feeder.feed(data), fetch_list=[predict])
    labels = np.array([d[1] for d in data]).reshape(-1, 1)
    auc_metric.update(preds=probs, labels=labels)
    print('batch %d auc %.6f' % (batch_id, auc_metric.eval()))
print(type(auc_metric.eval()).__name__, round(auc_metric.eval(), 10))

coarse = fluid.metrics.Auc('coarse', curve='ROC', num_thresholds=10)
print(coarse.eval())
coarse.update(np.array([[0.9, 0.1], [0.35, 0.65], [0.2, 0.8]]), np.array([[0], [0], [1]]))
print(coarse.eval())
coarse.update(np.array([[0.55, 0.45], [0.05, 0.95]]), np.array([[1], [0]]))
print(coarse.eval(), fluid.metrics.Auc.trapezoid_area(0.0, 2.0, 1.0, 3.0))
for preds, labels in (([[0.3, 0.7]], np.array([[1]])), (np.array([[0.3, 0.7]]), [[1]])):
    try:
        coarse.update(preds, labels)
    except ValueError as e:
        print('ValueError:', e)
