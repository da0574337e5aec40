# layers.argmax/argmin (1.x's default axis 0, negative axes, ties to the
# first index) on a fetched batch, as inference scripts pick a class.
import numpy as np
import paddle.fluid as fluid
x = fluid.layers.data(name='x', shape=[3, 4], dtype='float32')
a = fluid.layers.argmax(x)
b = fluid.layers.argmax(x, axis=-1)
c = fluid.layers.argmin(x, axis=2)
d = fluid.layers.argmax(fluid.layers.softmax(fluid.layers.reshape(x, [-1, 12])), axis=1)
exe = fluid.Executor(fluid.CPUPlace())
xv = np.array([[[1, 5, 5, 0], [2, 2, 9, 1], [7, 0, 3, 3]], [[0, 0, 0, 0], [4, 8, 1, 8], [-1, -5, -5, 2]]], dtype='float32')
for o in exe.run(feed={'x': xv}, fetch_list=[a, b, c, d]):
    print(o.dtype, o.shape, o.tolist())
print(a.shape, b.shape, c.shape, d.shape)

# Integer scores (vote counts, ids): 1.x's kernels took int64 and int32.
tally = fluid.Program()
with fluid.program_guard(tally, fluid.Program()):
    votes = fluid.layers.data(name='votes', shape=[4], dtype='int64')
    ivotes = fluid.layers.cast(votes, 'int32')
    best_votes = fluid.layers.argmax(votes, axis=1)
    worst_votes = fluid.layers.argmin(ivotes, axis=1)
b, w = exe.run(tally, feed={'votes': np.array([[3, 9, 1, 4], [7, 2, 8, 0]], dtype='int64')},
               fetch_list=[best_votes, worst_votes])
print(b.tolist(), w.tolist())
