# while_grad against finite differences: a fed bias b (read at every step
# of the loop) and a fed initial state h0 (written into the memory array
# before it); the gradients append_backward computes match central
# differences of the loss.
from __future__ import print_function
import numpy as np
import paddle.fluid as fluid
import paddle.fluid.layers as layers
from paddle.fluid.backward import append_backward

fluid.default_startup_program().random_seed = 4
STEPS, HIDDEN = 3, 4
b = layers.data(name='b', shape=[1, HIDDEN], append_batch_size=False, dtype='float32')
h0 = layers.data(name='h0', shape=[1, HIDDEN], append_batch_size=False, dtype='float32')
b.stop_gradient = False
h0.stop_gradient = False
step = layers.zeros(shape=[1], dtype='int64')
step.stop_gradient = True
memory = layers.array_write(h0, step)
limit = layers.fill_constant(shape=[1], dtype='int64', value=STEPS)
cond = layers.less_than(x=step, y=limit)
loop = layers.While(cond=cond)
with loop.block():
    h_prev = layers.array_read(memory, step)
    h = layers.tanh(layers.elementwise_add(layers.fc(input=h_prev, size=HIDDEN), b))
    step = layers.increment(step, in_place=True)
    layers.array_write(h, step, array=memory)
    layers.less_than(x=step, y=limit, cond=cond)
loss = layers.reduce_sum(layers.square(layers.array_read(memory, step)))
append_backward(loss)

exe = fluid.Executor(fluid.CPUPlace())
exe.run(fluid.default_startup_program())
rng = np.random.RandomState(8)
feed = {'b': rng.rand(1, HIDDEN).astype('float32') - 0.5,
        'h0': rng.rand(1, HIDDEN).astype('float32') - 0.5}
_, gb, gh = exe.run(feed=feed, fetch_list=[loss, 'b@GRAD', 'h0@GRAD'])

def numeric(name):
    grad = []
    for k in range(HIDDEN):
        step_k = 0.01 * (np.arange(HIDDEN) == k).astype('float32').reshape(1, HIDDEN)
        up = dict(feed)
        down = dict(feed)
        up[name] = feed[name] + step_k
        down[name] = feed[name] - step_k
        lu, = exe.run(feed=up, fetch_list=[loss])
        ld, = exe.run(feed=down, fetch_list=[loss])
        grad.append((float(lu) - float(ld)) / 0.02)
    return np.array(grad).reshape(1, HIDDEN)

print('b', np.allclose(gb, numeric('b'), rtol=1e-2, atol=1e-3))
print('h0', np.allclose(gh, numeric('h0'), rtol=1e-2, atol=1e-3))
