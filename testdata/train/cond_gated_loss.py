# A cond-gated loss: while the squared error is large the step doubles it,
# afterwards it is halved; fluid.layers.cond builds two conditional
# blocks, and SGD trains through conditional_block_grad.
from __future__ import print_function
import numpy as np
import paddle.fluid as fluid
import paddle.fluid.layers as layers

fluid.default_startup_program().random_seed = 11
rng = np.random.RandomState(3)
xs = rng.rand(16, 3).astype('float32')
ys = (xs.sum(axis=1, keepdims=True) * 0.7).astype('float32')

x = layers.data(name='x', shape=[3], dtype='float32')
y = layers.data(name='y', shape=[1], dtype='float32')
pred = layers.fc(input=x, size=1)
err = layers.mean(layers.square(pred - y))
big = layers.fill_constant(shape=[1], dtype='float32', value=0.08)
loss = layers.cond(layers.greater_than(err, big),
                   lambda: layers.scale(err, scale=2.0),
                   lambda: layers.scale(err, scale=0.5))
fluid.optimizer.SGD(learning_rate=0.1).minimize(loss)

exe = fluid.Executor(fluid.CPUPlace())
exe.run(fluid.default_startup_program())
for step in range(20):
    l, e = exe.run(feed={'x': xs, 'y': ys}, fetch_list=[loss, err])
    print(step, l, e)
