# fluid.io.PyReader (Paddle 1.5-1.6) in its two modes. Not iterable, it is
# built into the program like layers.py_reader: start() each pass, run
# until fluid.core.EOFException, reset(). Iterable, the program is left
# alone and each batch is fed: `for data in reader(): exe.run(feed=data)`.
# The data sources: decorate_sample_generator (samples, batched by the
# reader), decorate_sample_list_generator (minibatches), and
# decorate_batch_generator (ready arrays).
from __future__ import print_function

import numpy as np
import paddle
import paddle.fluid as fluid

BATCH = 4


def samples(n):
    def reader():
        for i in range(n):
            yield np.array([i, i * 0.5, 1.0], dtype='float32'), np.array([i % 2], dtype='int64')
    return reader


def batches(n):
    def reader():
        for i in range(n):
            x = np.arange(BATCH * 3, dtype='float32').reshape(BATCH, 3) * 0.1 + i
            y = (np.arange(BATCH, dtype='int64') % 2).reshape(BATCH, 1)
            yield x, y
    return reader


main = fluid.Program()
startup = fluid.Program()
startup.random_seed = 3
with fluid.program_guard(main, startup):
    x = fluid.layers.data(name='x', shape=[3], dtype='float32')
    y = fluid.layers.data(name='y', shape=[1], dtype='int64')
    reader = fluid.io.PyReader(feed_list=[x, y], capacity=8, iterable=False)
    predict = fluid.layers.fc(input=x, size=2, act='softmax')
    loss = fluid.layers.mean(fluid.layers.cross_entropy(input=predict, label=y))
    fluid.optimizer.SGD(learning_rate=0.1).minimize(loss)

print('not iterable:', reader.iterable, [op.type for op in main.global_block().ops][:2])
exe = fluid.Executor(fluid.CPUPlace())
exe.run(startup)

reader.decorate_sample_generator(samples(10), batch_size=BATCH, drop_last=True)
for epoch in range(2):
    reader.start()
    shapes, losses = [], []
    try:
        while True:
            l, xs = exe.run(main, fetch_list=[loss, x])
            shapes.append(xs.shape[0])
            losses.append(round(float(np.array(l).ravel()[0]), 4))
    except fluid.core.EOFException:
        reader.reset()
    print('epoch', epoch, 'batch sizes', shapes, 'losses', losses)

# An iterable reader needs no ops: the same program without them.
infer = fluid.Program()
with fluid.program_guard(infer, fluid.Program()):
    ix = fluid.layers.data(name='ix', shape=[3], dtype='float32')
    iy = fluid.layers.data(name='iy', shape=[1], dtype='int64')
    total = fluid.layers.reduce_sum(ix)
    labels = fluid.layers.reduce_sum(fluid.layers.cast(iy, 'float32'))
print('iterable program ops', [op.type for op in infer.global_block().ops])

it = fluid.io.PyReader(feed_list=[ix, iy], capacity=2, iterable=True)
print('iterable:', it.iterable)
it.decorate_sample_list_generator(paddle.batch(samples(7), batch_size=3), fluid.CPUPlace())
for epoch in range(2):
    for data in it():
        t, n = exe.run(infer, feed=data, fetch_list=[total, labels])
        print(epoch, type(data).__name__, len(data), sorted(data[0].keys()),
              np.array(data[0]['ix']).shape, round(float(np.array(t).ravel()[0]), 3),
              float(np.array(n).ravel()[0]))

it2 = fluid.io.PyReader(feed_list=[ix, iy], capacity=2, iterable=True, return_list=True)
it2.decorate_batch_generator(batches(3), places=[fluid.CPUPlace()])
for data in it2():
    print('as list:', len(data), len(data[0]), [np.array(t).shape for t in data[0]],
          np.round(np.array(data[0][0])[0], 2).tolist())

it3 = fluid.io.PyReader(feed_list=[ix, iy], capacity=4, iterable=True)
it3.decorate_sample_generator(samples(10), batch_size=4, drop_last=False,
                              places=fluid.CPUPlace())
print('sample batches', [np.array(d[0]['ix']).shape[0] for d in it3()])
