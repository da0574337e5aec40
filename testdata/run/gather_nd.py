# 1.6's layers.gather_nd: picking one time step per sequence out of a
# padded [batch, time, dim] tensor by (batch, step) pairs, single elements
# by full coordinates, and whole rows by a depth-1 index; the gradient adds
# up where an index repeats.
import numpy as np
import paddle.fluid as fluid

fluid.default_startup_program().random_seed = 3
seq = fluid.layers.data(name='seq', shape=[4, 3], dtype='float32')
seq.stop_gradient = False
pos = fluid.layers.data(name='pos', shape=[2], dtype='int32')
coords = fluid.layers.data(name='coords', shape=[3], dtype='int64')
rows = fluid.layers.data(name='rows', shape=[2, 1], dtype='int64', append_batch_size=False)
hidden = fluid.layers.fc(input=seq, size=3, num_flatten_dims=2, act='tanh')
last = fluid.layers.gather_nd(hidden, pos)
points = fluid.layers.gather_nd(seq, coords)
whole = fluid.layers.gather_nd(seq, rows)
print(last.shape, points.shape, whole.shape)
score = fluid.layers.fc(input=last, size=1)
loss = fluid.layers.mean(fluid.layers.square(score)) + fluid.layers.reduce_sum(points) \
    + fluid.layers.reduce_mean(whole)
fluid.optimizer.SGD(learning_rate=0.1).minimize(loss)
seq_grad = fluid.default_main_program().global_block().var('seq@GRAD')

exe = fluid.Executor(fluid.CPUPlace())
exe.run(fluid.default_startup_program())
feed = {'seq': np.linspace(-1, 1, 3 * 4 * 3).reshape(3, 4, 3).astype('float32'),
        'pos': np.array([[0, 3], [1, 1], [2, 0], [0, 3]]).astype('int32'),
        'coords': np.array([[0, 0, 0], [2, 3, 2], [0, 0, 0]]).astype('int64'),
        'rows': np.array([[1], [1]]).astype('int64')}
for step in range(3):
    l, a, p, w, g = exe.run(feed=feed, fetch_list=[loss, last, points, whole, seq_grad])
    print(step, np.round(l, 5).tolist(), a.shape, p.shape, w.shape)
print(np.round(a, 5).tolist())
print(np.round(p, 5).tolist())
print(np.round(w, 5).tolist())
print(np.round(g, 5).tolist())
