# One-element fetches as 2019 models used them: senta/emotion_detection
# fetch loss, accuracy and the sequence count with return_numpy=False and
# do `total.extend(np.array(loss) * np.array(num))`, so each LoDTensor of a
# [1] variable must turn into a (1,) array; lexical_analysis feeds
# chunk_eval's counters to ChunkEvaluator and prints "%.5f" of its results.
import numpy as np
import paddle.fluid as fluid

words = fluid.layers.data(name='words', shape=[1], dtype='int64', lod_level=1)
label = fluid.layers.data(name='label', shape=[1], dtype='int64', lod_level=1)
emb = fluid.layers.embedding(input=words, size=[10, 4],
                             param_attr=fluid.initializer.Constant(0.1))
fc = fluid.layers.fc(input=emb, size=3, act='softmax',
                     param_attr=fluid.initializer.Constant(0.2),
                     bias_attr=fluid.initializer.Constant(0.0))
decoded = fluid.layers.data(name='decoded', shape=[1], dtype='int64', lod_level=1)
cost = fluid.layers.mean(fluid.layers.cross_entropy(input=fc, label=label))
total = fluid.layers.create_tensor(dtype='int64')
acc = fluid.layers.accuracy(input=fc, label=label, total=total)
(precision, recall, f1, num_infer, num_label, num_correct) = fluid.layers.chunk_eval(
    input=decoded, label=label, chunk_scheme="IOB", num_chunk_types=1)

exe = fluid.Executor(fluid.CPUPlace())
exe.run(fluid.default_startup_program())
place = fluid.CPUPlace()
w = fluid.create_lod_tensor(np.array([[1], [2], [3], [4], [5]], 'int64'), [[3, 2]], place)
l = fluid.create_lod_tensor(np.array([[0], [1], [2], [0], [1]], 'int64'), [[3, 2]], place)
d = fluid.create_lod_tensor(np.array([[0], [1], [2], [0], [2]], 'int64'), [[3, 2]], place)
feed = {'words': w, 'label': l, 'decoded': d}

np_loss, np_acc, np_num = exe.run(feed=feed, fetch_list=[cost, acc, total],
                                  return_numpy=False)
np_loss, np_acc, np_num = np.array(np_loss), np.array(np_acc), np.array(np_num)
print(np_loss.shape, np_acc.shape, np_num.shape)
total_cost, total_acc, total_num = [], [], []
total_cost.extend(np_loss * np_num)
total_acc.extend(np_acc * np_num)
total_num.extend(np_num)
print("ave loss: %f, ave acc: %f" % (np.sum(total_cost) / np.sum(total_num),
                                     np.sum(total_acc) / np.sum(total_num)))

evaluator = fluid.metrics.ChunkEvaluator()
ni, nl, nc = exe.run(feed=feed, fetch_list=[num_infer, num_label, num_correct])
print(ni.shape, nl.shape, nc.shape)
evaluator.update(ni, nl, nc)
p, r, f = evaluator.eval()
print("P: %.5f, R: %.5f, F1: %.5f, chunks: %d %d %d" % (p, r, f, ni, nl, nc))
