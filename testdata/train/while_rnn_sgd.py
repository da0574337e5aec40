# A recurrent net written as a While loop over tensor arrays, as 2018
# scripts built one by hand: five steps of h = tanh(fc([x_t, h])), the loss
# the mean of the last h, trained by SGD through while_grad.
from __future__ import print_function
import numpy as np
import paddle.fluid as fluid
import paddle.fluid.layers as layers

fluid.default_startup_program().random_seed = 3
STEPS, BATCH, HIDDEN = 5, 4, 16
rng = np.random.RandomState(7)
inputs = rng.rand(STEPS, BATCH, 8).astype('float32') - 0.5

i = layers.zeros(shape=[1], dtype='int64')
i.stop_gradient = True
xs = None
for t in range(STEPS):
    x = layers.data(name='x%d' % t, shape=[BATCH, 8], append_batch_size=False, dtype='float32')
    xs = layers.array_write(x, i, array=xs)
    i = layers.increment(i, in_place=True)

h0 = layers.fill_constant(shape=[BATCH, HIDDEN], dtype='float32', value=0.0)
h0.stop_gradient = False
step = layers.zeros(shape=[1], dtype='int64')
step.stop_gradient = True
memory = layers.array_write(h0, step)
limit = layers.fill_constant(shape=[1], dtype='int64', value=STEPS)
cond = layers.less_than(x=step, y=limit)
loop = layers.While(cond=cond)
with loop.block():
    x_t = layers.array_read(xs, step)
    h_prev = layers.array_read(memory, step)
    h = layers.fc(input=[x_t, h_prev], size=HIDDEN, act='tanh')
    step = layers.increment(step, in_place=True)
    layers.array_write(h, step, array=memory)
    layers.less_than(x=step, y=limit, cond=cond)

last = layers.array_read(memory, step)
loss = layers.mean(last)
fluid.optimizer.SGD(learning_rate=0.5).minimize(loss)

exe = fluid.Executor(fluid.CPUPlace())
exe.run(fluid.default_startup_program())
feed = {'x%d' % t: inputs[t] for t in range(STEPS)}
for k in range(20):
    l, = exe.run(feed=feed, fetch_list=[loss])
    print(k, l)
