# A 2019 (Paddle 1.6) script reading its data through fluid.io's reader
# decorators (1.6 re-exported paddle.reader's there): two "files" read in
# parallel with fluid.io.multiprocess_reader, mapped, shuffled, buffered
# and batched with fluid.io.batch, then a linear model trained on them.
import random

import numpy as np
import paddle.fluid as fluid

random.seed(5)


def file_reader(first, count):
    def reader():
        for i in range(first, first + count):
            yield [i * 0.1, 1.0 - i * 0.05], [i * 0.2 + 0.3]
    return reader


part_a, part_b = file_reader(0, 5), file_reader(10, 3)

# One sample from each unfinished reader in turn; JSON made tuples lists.
merged = fluid.io.multiprocess_reader([part_a, part_b])
print("pipe order:", [round(s[0][0], 2) for s in merged()])
print("pipe sample:", next(iter(merged())))

queued = fluid.io.multiprocess_reader([part_a, part_b], use_pipe=False, queue_size=4)
print("queue samples:", sorted(round(s[0][0], 2) for s in queued()))


def with_tuples():
    yield (1, 2)
    yield (3, (4, 5))


print("tuples via pipe:", list(fluid.io.multiprocess_reader([with_tuples])()))
print("tuples via queue:", list(fluid.io.multiprocess_reader([with_tuples], False)()))


def arrays():
    yield np.zeros(2, 'float32')


try:
    list(fluid.io.multiprocess_reader([arrays])())
except ValueError as e:
    print("numpy sample via pipe:", type(e).__name__)


def gives_none():
    yield [1]
    yield None


try:
    list(fluid.io.multiprocess_reader([gives_none], use_pipe=False)())
except ValueError as e:
    print("None sample:", type(e).__name__)

# The other decorators under their fluid.io names.
ids = lambda: iter(range(6))
print("chain:", list(fluid.io.chain(ids, fluid.io.firstn(ids, 2))()))
print("compose:", list(fluid.io.compose(ids, fluid.io.map_readers(lambda v: v * v, ids))()))
try:
    list(fluid.io.compose(ids, fluid.io.firstn(ids, 3))())
except fluid.io.ComposeNotAligned as e:
    print("not aligned:", type(e).__name__, isinstance(e, ValueError))
print("xmap:", list(fluid.io.xmap_readers(lambda v: v + 100, ids, 2, 4, order=True)()))
print("cache:", list(fluid.io.cache(ids)()), list(fluid.io.buffered(ids, 2)()))

# Train on the merged reader.
x = fluid.layers.data(name='x', shape=[2], dtype='float32')
y = fluid.layers.data(name='y', shape=[1], dtype='float32')
pred = fluid.layers.fc(x, size=1,
                       param_attr=fluid.ParamAttr(initializer=fluid.initializer.Constant(0.2)),
                       bias_attr=fluid.ParamAttr(initializer=fluid.initializer.Constant(0.0)))
loss = fluid.layers.mean(fluid.layers.square_error_cost(pred, y))
fluid.optimizer.SGD(learning_rate=0.1).minimize(loss)
exe = fluid.Executor(fluid.CPUPlace())
exe.run(fluid.default_startup_program())
feeder = fluid.DataFeeder(feed_list=[x, y], place=fluid.CPUPlace())
train_reader = fluid.io.batch(
    fluid.io.buffered(fluid.io.shuffle(merged, buf_size=8), size=4), batch_size=3)
for epoch in range(3):
    for batch_id, data in enumerate(train_reader()):
        l, = exe.run(feed=feeder.feed(data), fetch_list=[loss])
        print("epoch %d batch %d size %d loss %.5f" % (epoch, batch_id, len(data),
                                                       float(np.array(l).ravel()[0])))
