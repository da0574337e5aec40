# Paddle 1.5's create_py_reader_by_data, as the 2019 CTR model used it: the
# data layers (two id sequences with LoD and a label) give the reader its
# slots, read_file gives new variables in their place, embeddings pooled
# per sequence feed a small classifier. Batches come from a paddle reader
# of samples, and then from a tensor provider of LoD tensors; last, a
# thread pushes batches into the reader's queue itself, as Paddle's own
# 2018 tests did, and closes it.
from __future__ import print_function

import threading

import numpy as np
import paddle
import paddle.fluid as fluid

DICT = 20


def samples():
    for i in range(12):
        words = [(i * 3 + k) % DICT for k in range(1 + i % 3)]
        tags = [(i + 2 * k) % DICT for k in range(2 - i % 2)]
        yield words, tags, [i % 2]


main = fluid.Program()
startup = fluid.Program()
startup.random_seed = 11
with fluid.program_guard(main, startup):
    words = fluid.layers.data(name='words', shape=[1], dtype='int64', lod_level=1)
    tags = fluid.layers.data(name='tags', shape=[1], dtype='int64', lod_level=1)
    label = fluid.layers.data(name='label', shape=[1], dtype='int64')
    py_reader = fluid.layers.create_py_reader_by_data(
        capacity=64, feed_list=[words, tags, label], name='py_reader', use_double_buffer=False)
    w, t, y = fluid.layers.read_file(py_reader)
    emb_w = fluid.layers.embedding(input=w, size=[DICT, 4], param_attr='emb')
    emb_t = fluid.layers.embedding(input=t, size=[DICT, 4], param_attr='emb')
    pooled = [fluid.layers.sequence_pool(input=e, pool_type='sum') for e in (emb_w, emb_t)]
    predict = fluid.layers.fc(input=fluid.layers.concat(pooled, axis=1), size=2, act='softmax')
    cost = fluid.layers.mean(fluid.layers.cross_entropy(input=predict, label=y))
    fluid.optimizer.Adam(learning_rate=0.05).minimize(cost)

print('slots', [(v.name, list(v.shape), v.lod_level) for v in (w, t, y)])
print('reader', py_reader.name, [op.type for op in main.global_block().ops][:1],
      [op.type for op in startup.global_block().ops][:1])

exe = fluid.Executor(fluid.CPUPlace())
exe.run(startup)

py_reader.decorate_paddle_reader(paddle.batch(samples, batch_size=4))
for epoch in range(2):
    py_reader.start()
    out = []
    try:
        while True:
            loss, ww = exe.run(main, fetch_list=[cost, w], return_numpy=False)
            out.append((round(float(np.array(loss).ravel()[0]), 4),
                        ww.recursive_sequence_lengths()))
    except fluid.core.EOFException:
        py_reader.reset()
    print('epoch', epoch, out)


def lod_batches():
    for b in range(2):
        ws = fluid.create_lod_tensor(
            np.arange(b, b + 5, dtype='int64').reshape(5, 1), [[2, 3]], fluid.CPUPlace())
        ts = fluid.create_lod_tensor(
            np.arange(3, dtype='int64').reshape(3, 1) + b, [[1, 2]], fluid.CPUPlace())
        yield [ws, ts, np.array([[b % 2], [1]], dtype='int64')]


py_reader.decorate_tensor_provider(lod_batches)
py_reader.start()
try:
    while True:
        p, = exe.run(main, fetch_list=[predict])
        print('provider batch', p.shape)
except fluid.core.EOFException:
    py_reader.reset()


def push(queue):
    for b in range(3):
        arr = fluid.LoDTensorArray()
        for value, lens in ((np.arange(4, dtype='int64').reshape(4, 1) + b, [[1, 3]]),
                            (np.array([[b], [b + 1]], dtype='int64'), [[1, 1]]),
                            (np.array([[0], [1]], dtype='int64'), None)):
            t = fluid.LoDTensor()
            t.set(value, fluid.CPUPlace())
            if lens is not None:
                t.set_recursive_sequence_lengths(lens)
            arr.append(t)
        queue.push(arr)
    queue.close()


thread = threading.Thread(target=push, args=(py_reader.queue,))
thread.start()
pushed = 0
try:
    while True:
        ww, = exe.run(main, fetch_list=[w], return_numpy=False)
        pushed += 1
        print('pushed batch', np.array(ww).ravel().tolist(), ww.recursive_sequence_lengths())
except fluid.core.EOFException:
    print('queue closed after', pushed)
thread.join()
py_reader.reset()

infer = main._inference_optimize(prune_read_op=True)
kept = main._inference_optimize(prune_read_op=False)
print('inference ops start', [op.type for op in infer.global_block().ops][:2],
      [op.type for op in kept.global_block().ops][:2])
