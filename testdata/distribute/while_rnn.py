# Data-parallel case 5 (issue 39): a recurrent net written as a While loop
# over tensor arrays, h = tanh(fc([x_t, h])) for 4 steps, the loss the mean
# of the last h; the fc parameters get their gradients from while_grad.
# The batch is the -1 dim (h0 an fc of the first input), so each trainer
# can take half of the 8 rows.
from __future__ import print_function
import numpy as np
import paddle.fluid as fluid
import paddle.fluid.layers as layers

fluid.default_startup_program().random_seed = 15
STEPS, BATCH, HIDDEN = 4, 8, 6
rng = np.random.RandomState(5)
inputs = rng.rand(STEPS, BATCH, 3).astype('float32') - 0.5

i = layers.zeros(shape=[1], dtype='int64')
i.stop_gradient = True
xs = None
x0 = None
for t in range(STEPS):
    x = layers.data(name='x%d' % t, shape=[3], dtype='float32')
    if x0 is None:
        x0 = x
    xs = layers.array_write(x, i, array=xs)
    i = layers.increment(i, in_place=True)

h0 = layers.fc(input=x0, size=HIDDEN, act='tanh')
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
for k in range(5):
    l, = exe.run(feed=feed, fetch_list=[loss])
    print(k, l)
