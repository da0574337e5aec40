# A 2019 (Paddle 1.6) data-parallel script's reader: every trainer reads the
# same batches and fluid.contrib.reader.distributed_batch_reader keeps its
# own share (PADDLE_TRAINERS_NUM / PADDLE_TRAINER_ID, as paddle.distributed
# .launch set them); here the second of three trainers, then a single one
# training a linear model on every batch.
import os

import numpy as np
import paddle
import paddle.fluid as fluid
from paddle.fluid.contrib.reader import distributed_batch_reader


def samples():
    for i in range(11):
        yield [float(i), float(i % 3)], [2.0 * i - (i % 3)]


batches = paddle.batch(samples, batch_size=2)

os.environ['PADDLE_TRAINERS_NUM'] = '3'
os.environ['PADDLE_TRAINER_ID'] = '1'
share = distributed_batch_reader(batches)
print("trainer 1 of 3:", [[s[0][0] for s in b] for b in share()])
os.environ['PADDLE_TRAINER_ID'] = '2'
print("trainer 2 of 3:", [[s[0][0] for s in b] for b in
                          fluid.contrib.distributed_batch_reader(batches)()])
try:
    os.environ['PADDLE_TRAINER_ID'] = '3'
    fluid.contrib.reader.distributed_batch_reader(batches)
except AssertionError:
    print("trainer id 3 of 3 refused")

os.environ['PADDLE_TRAINERS_NUM'] = '1'
os.environ['PADDLE_TRAINER_ID'] = '0'
x = fluid.layers.data(name='x', shape=[2], dtype='float32')
y = fluid.layers.data(name='y', shape=[1], dtype='float32')
pred = fluid.layers.fc(x, size=1, param_attr=fluid.ParamAttr(
    initializer=fluid.initializer.Constant(0.1)), bias_attr=False)
loss = fluid.layers.mean(fluid.layers.square_error_cost(pred, y))
fluid.optimizer.SGD(learning_rate=0.01).minimize(loss)
exe = fluid.Executor(fluid.CPUPlace())
exe.run(fluid.default_startup_program())
feeder = fluid.DataFeeder(feed_list=[x, y], place=fluid.CPUPlace())
for batch_id, data in enumerate(distributed_batch_reader(batches)()):
    l, = exe.run(feed=feeder.feed(data), fetch_list=[loss])
    print("batch %d size %d loss %.5f" % (batch_id, len(data), float(np.array(l).ravel()[0])))
