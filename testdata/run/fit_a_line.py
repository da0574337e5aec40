# The 2018 book's fit_a_line, in its style: UCI housing from Paddle's
# dataset cache (the test puts a small housing.data under a temporary
# HOME), shuffled and batched by paddle.reader / paddle.batch, fed through
# a DataFeeder to a linear regression trained with SGD, then tested.
from __future__ import print_function

import random

import numpy
import paddle
import paddle.fluid as fluid

BATCH_SIZE = 8
random.seed(2018)
fluid.default_startup_program().random_seed = 90

train_reader = paddle.batch(
    paddle.reader.shuffle(paddle.dataset.uci_housing.train(), buf_size=500),
    batch_size=BATCH_SIZE)
test_reader = paddle.batch(paddle.dataset.uci_housing.test(), batch_size=BATCH_SIZE)

x = fluid.layers.data(name='x', shape=[13], dtype='float32')
y = fluid.layers.data(name='y', shape=[1], dtype='float32')
y_predict = fluid.layers.fc(input=x, size=1, act=None)
cost = fluid.layers.square_error_cost(input=y_predict, label=y)
avg_cost = fluid.layers.mean(cost)

test_program = fluid.default_main_program().clone(for_test=True)
sgd_optimizer = fluid.optimizer.SGD(learning_rate=0.01)
sgd_optimizer.minimize(avg_cost)

place = fluid.CPUPlace()
exe = fluid.Executor(place)
feeder = fluid.DataFeeder(place=place, feed_list=[x, y])
exe.run(fluid.default_startup_program())

first = next(iter(train_reader()))
fed = feeder.feed(first)
print('batch of', len(first), 'x', fed['x'].shape(), numpy.array(fed['x']).dtype,
      'y', fed['y'].shape(), fed['y'].recursive_sequence_lengths())


def test_loss():
    total, count = 0.0, 0
    for data in test_reader():
        loss, = exe.run(test_program, feed=feeder.feed(data), fetch_list=[avg_cost])
        total += float(loss) * len(data)
        count += len(data)
    return total / count


for pass_id in range(3):
    step = 0
    for data in train_reader():
        loss, = exe.run(fluid.default_main_program(), feed=feeder.feed(data),
                        fetch_list=[avg_cost])
        if step % 2 == 0:
            print('pass %d step %d loss %.1f' % (pass_id, step, float(loss)))
        step += 1
    print('pass %d test loss %.1f' % (pass_id, test_loss()))
