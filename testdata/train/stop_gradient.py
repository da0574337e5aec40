# stop_gradient on an intermediate: the first layer's output is frozen, so
# backward stops there and the first fc's parameters never change; only
# the second fc trains.
from __future__ import print_function
import numpy as np
import paddle.fluid as fluid

fluid.default_startup_program().random_seed = 9

rng = np.random.RandomState(5)
xs = rng.rand(8, 4).astype('float32')
ys = rng.rand(8, 1).astype('float32')

x = fluid.layers.data(name='x', shape=[4], dtype='float32')
y = fluid.layers.data(name='y', shape=[1], dtype='float32')
frozen = fluid.layers.fc(input=x, size=6, act='sigmoid')
frozen.stop_gradient = True
pred = fluid.layers.fc(input=frozen, size=1)
avg_cost = fluid.layers.mean(fluid.layers.square_error_cost(input=pred, label=y))

fluid.optimizer.SGD(learning_rate=0.1).minimize(avg_cost)

exe = fluid.Executor(fluid.CPUPlace())
exe.run(fluid.default_startup_program())
for step in range(10):
    loss, = exe.run(feed={'x': xs, 'y': ys}, fetch_list=[avg_cost])
    print(step, loss)
