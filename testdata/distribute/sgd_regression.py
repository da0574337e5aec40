# Data-parallel case 1 (issue 39): a two-layer fc regression trained with
# SGD on a fixed batch of 8 rows, as the 2018 fit_a_line scripts trained.
# Split over 2 trainers, each trains on 4 rows; the all-reduced gradients
# must give the losses one process gets on the whole batch.
from __future__ import print_function
import numpy as np
import paddle.fluid as fluid

fluid.default_startup_program().random_seed = 11

rng = np.random.RandomState(1)
xs = rng.rand(8, 4).astype('float32')
ys = (xs.sum(axis=1, keepdims=True) * 0.5 + 0.1).astype('float32')

x = fluid.layers.data(name='x', shape=[4], dtype='float32')
y = fluid.layers.data(name='y', shape=[1], dtype='float32')
hidden = fluid.layers.fc(input=x, size=6, act='tanh')
y_predict = fluid.layers.fc(input=hidden, size=1, act=None)
cost = fluid.layers.square_error_cost(input=y_predict, label=y)
avg_cost = fluid.layers.mean(cost)

fluid.optimizer.SGD(learning_rate=0.1).minimize(avg_cost)

exe = fluid.Executor(fluid.CPUPlace())
exe.run(fluid.default_startup_program())
for step in range(5):
    loss, = exe.run(fluid.default_main_program(),
                    feed={'x': xs, 'y': ys}, fetch_list=[avg_cost])
    print(step, loss)
