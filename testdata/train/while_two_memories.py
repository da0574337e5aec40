# A While loop carrying two memories (a cell c and an output h, as an
# LSTM-like net without gates), both feeding the loss: while_grad reads
# two output gradients and trains the three fc layers with Momentum.
from __future__ import print_function
import numpy as np
import paddle.fluid as fluid
import paddle.fluid.layers as layers

fluid.default_startup_program().random_seed = 21
STEPS, BATCH, HIDDEN = 4, 3, 8
rng = np.random.RandomState(11)
inputs = rng.rand(STEPS, BATCH, 6).astype('float32') - 0.5

i = layers.zeros(shape=[1], dtype='int64')
i.stop_gradient = True
xs = layers.create_array('float32')
for t in range(STEPS):
    x = layers.data(name='x%d' % t, shape=[BATCH, 6], append_batch_size=False, dtype='float32')
    layers.array_write(x, i, array=xs)
    i = layers.increment(i, in_place=True)

zero = layers.fill_constant(shape=[BATCH, HIDDEN], dtype='float32', value=0.0)
zero.stop_gradient = False
step = layers.zeros(shape=[1], dtype='int64')
step.stop_gradient = True
mem_h = layers.array_write(zero, step)
mem_c = layers.array_write(zero, step)
limit = layers.fill_constant(shape=[1], dtype='int64', value=STEPS)
cond = layers.less_than(x=step, y=limit)
loop = layers.While(cond=cond)
with loop.block():
    x_t = layers.array_read(xs, step)
    h_prev = layers.array_read(mem_h, step)
    c_prev = layers.array_read(mem_c, step)
    c = layers.elementwise_add(layers.fc(input=[x_t, h_prev], size=HIDDEN, act='tanh'), c_prev)
    h = layers.fc(input=c, size=HIDDEN, act='sigmoid')
    step = layers.increment(step, in_place=True)
    layers.array_write(h, step, array=mem_h)
    layers.array_write(c, step, array=mem_c)
    layers.less_than(x=step, y=limit, cond=cond)

loss = layers.elementwise_add(layers.mean(layers.array_read(mem_h, step)),
                              layers.mean(layers.square(layers.array_read(mem_c, step))))
fluid.optimizer.Momentum(learning_rate=0.2, momentum=0.9).minimize(loss)

exe = fluid.Executor(fluid.CPUPlace())
exe.run(fluid.default_startup_program())
feed = {'x%d' % t: inputs[t] for t in range(STEPS)}
for k in range(20):
    l, = exe.run(feed=feed, fetch_list=[loss])
    print(k, l)
