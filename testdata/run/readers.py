# Paddle 1.x's readers: paddle.batch and the paddle.reader decorators over
# generator functions (shuffle draws from Python's `random`, seeded), and a
# DataFeeder turning a minibatch into the LoDTensors exe.run takes (1.x:
# one LoDTensor per field, `.shape()` a method, read with np.array).
import random

import numpy as np
import paddle
import paddle.fluid as fluid

random.seed(11)


def numbers():
    for i in range(11):
        yield i


def pairs():
    for i in range(11):
        yield i * 10, -i


def squares():
    return [i * i for i in range(5)]


print(list(paddle.batch(numbers, 4)()))
print(list(paddle.batch(numbers, batch_size=4, drop_last=True)()))
print(list(paddle.reader.shuffle(numbers, 4)()))
print(list(paddle.reader.shuffle(numbers, buf_size=100)()))
print(list(paddle.reader.firstn(numbers, 3)()))
print(list(paddle.reader.chain(squares, paddle.reader.firstn(numbers, 2))()))
print(list(paddle.reader.compose(numbers, pairs)()))
print(list(paddle.reader.compose(squares, numbers, check_alignment=False)()))
print(list(paddle.reader.map_readers(lambda a, b: a + b[0], numbers, pairs)()))
print(list(paddle.reader.xmap_readers(lambda s: s * 2, squares, 2, 8, True)()))
print(list(paddle.reader.buffered(squares, 2)()))
for batch in paddle.batch(paddle.reader.shuffle(pairs, buf_size=5), batch_size=4)():
    print(batch)
try:
    list(paddle.reader.compose(squares, numbers)())
except ValueError as e:
    print('not aligned:', e)
try:
    paddle.batch(numbers, 0)
except ValueError as e:
    print(e)


def samples():
    for i in range(5):
        yield np.arange(3) * 0.5 + i, i % 3, [float(i)]


x = fluid.layers.data(name='x', shape=[3], dtype='float32')
label = fluid.layers.data(name='label', shape=[1], dtype='int64')
w = fluid.layers.data(name='w', shape=[1], dtype='float32')
feeder = fluid.DataFeeder(feed_list=[x, 'label', w], place=fluid.CPUPlace())
for batch in paddle.batch(samples, 3)():
    fed = feeder.feed(batch)
    for name in sorted(fed):
        t = fed[name]
        a = np.array(t)
        print(name, isinstance(t, fluid.LoDTensor), a.dtype, t.shape(), a.tolist(), t.lod())
