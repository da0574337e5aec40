# fluid.layers.py_reader as 2018-19 training scripts used it: the reader is
# decorated with a batched paddle reader, `read_file` gives the data
# variables, and each pass is `start()`, `exe.run` until
# fluid.core.EOFException, `reset()`. A second reader (named, no double
# buffer) feeds a test program that shares the parameters.
from __future__ import print_function

import numpy as np
import paddle
import paddle.fluid as fluid


def sample_reader(n, offset):
    def reader():
        for i in range(n):
            x = np.array([np.sin(i + offset), np.cos(2 * i + offset), (i % 5) / 5.0, 1.0],
                         dtype='float32')
            label = int(i % 3)
            yield x, [label]
    return reader


def network(reader):
    image, label = fluid.layers.read_file(reader)
    hidden = fluid.layers.fc(input=image, size=8, act='tanh')
    predict = fluid.layers.fc(input=hidden, size=3, act='softmax')
    cost = fluid.layers.cross_entropy(input=predict, label=label)
    avg_cost = fluid.layers.mean(cost)
    acc = fluid.layers.accuracy(input=predict, label=label)
    return image, label, avg_cost, acc


train_prog = fluid.Program()
train_startup = fluid.Program()
train_startup.random_seed = 7
with fluid.program_guard(train_prog, train_startup):
    with fluid.unique_name.guard():
        train_reader = fluid.layers.py_reader(
            capacity=4, shapes=[(-1, 4), (-1, 1)], dtypes=['float32', 'int64'])
        image, label, avg_cost, acc = network(train_reader)
        fluid.optimizer.SGD(learning_rate=0.5).minimize(avg_cost)

test_prog = fluid.Program()
test_startup = fluid.Program()
test_startup.random_seed = 7
with fluid.program_guard(test_prog, test_startup):
    with fluid.unique_name.guard():
        test_reader = fluid.layers.py_reader(
            capacity=2, shapes=[(-1, 4), (-1, 1)], dtypes=['float32', 'int64'],
            lod_levels=[0, 0], name='test_reader', use_double_buffer=False)
        _, _, test_cost, test_acc = network(test_reader)

print('read_file gives', image.shape, label.shape, image.lod_level, label.stop_gradient)
print('train ops', [op.type for op in train_prog.global_block().ops][:3])
print('train startup ops', [op.type for op in train_startup.global_block().ops][:1])
print('test ops', [op.type for op in test_prog.global_block().ops][:2])

train_reader.decorate_paddle_reader(paddle.batch(sample_reader(40, 0.0), batch_size=8))
test_reader.decorate_paddle_reader(paddle.batch(sample_reader(10, 0.5), batch_size=4))

exe = fluid.Executor(fluid.CPUPlace())
exe.run(train_startup)
exe.run(test_startup)

for pass_id in range(3):
    train_reader.start()
    losses, batches = [], 0
    try:
        while True:
            loss, accuracy, x = exe.run(train_prog, fetch_list=[avg_cost, acc, image])
            losses.append(float(np.array(loss).ravel()[0]))
            batches += 1
            if batches == 1:
                print('  first batch', x.shape, x.dtype, np.round(x[0], 4).tolist())
    except fluid.core.EOFException:
        train_reader.reset()
    test_reader.start()
    test_losses = []
    try:
        while True:
            loss, = exe.run(test_prog, fetch_list=[test_cost])
            test_losses.append(float(np.array(loss).ravel()[0]))
    except fluid.core.EOFException:
        test_reader.reset()
    print('pass %d: %d batches, train loss %.4f, test batches %d, test loss %.4f' % (
        pass_id, batches, np.mean(losses), len(test_losses), np.mean(test_losses)))

# A run past the end of the pass, before reset(), still finds no data.
train_reader.start()
n = 0
try:
    while True:
        exe.run(train_prog, fetch_list=[avg_cost])
        n += 1
except fluid.core.EOFException:
    print('EOF after', n, 'batches')
try:
    exe.run(train_prog, fetch_list=[avg_cost])
except fluid.core.EOFException as e:
    print('again:', type(e).__name__, isinstance(e, Exception))
train_reader.reset()
