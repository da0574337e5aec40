# reduce_* keep their input's LoD when they do not reduce dim 0, as in
# Paddle 1.x (PaddleRec's gru4rec BPR network sums each step's scores with
# reduce_sum(dim=1) and reshapes the sequences with sequence_reshape).
# fluidc only: Paddle 3.3.1's reduce kernels drop the LoD, while 1.x's
# ReduceOp::InferShape called ctx->ShareLoD("X", "Out") unless dims[0]
# was 0 (paddle/fluid/operators/reduce_ops/reduce_op.h, 1.0 to 1.8).
# Checked against numpy.
import numpy as np
import paddle.fluid as fluid
import paddle.fluid.layers as layers

data = np.arange(18, dtype='float32').reshape(6, 3) * 0.5 - 2.0
lengths = [2, 4]

x = layers.data(name='x', shape=[3], dtype='float32', lod_level=1)
x.stop_gradient = False
summed = layers.reduce_sum(x, dim=1, keep_dim=True)
pairs = layers.sequence_reshape(input=summed, new_dim=2)
biggest = layers.reduce_max(x, dim=[1])
pooled = layers.sequence_pool(layers.reshape(biggest, [-1, 1]), pool_type='sum')
total = layers.reduce_sum(x, dim=0)
loss = layers.reduce_sum(pooled) + layers.reduce_sum(layers.sequence_pool(pairs, 'max'))
fluid.backward.append_backward(loss)

place = fluid.CPUPlace()
exe = fluid.Executor(place)
exe.run(fluid.default_startup_program())
got_pairs, got_max, got_total, got_dx = exe.run(
    feed={'x': fluid.create_lod_tensor(data, [lengths], place)},
    fetch_list=[pairs, biggest, total, 'x@GRAD'], return_numpy=False)

row_sums = data.sum(axis=1)
want_pairs = row_sums.reshape(-1, 2)
assert np.allclose(np.array(got_pairs), want_pairs), np.array(got_pairs)
assert got_pairs.recursive_sequence_lengths() == [[1, 2]], got_pairs.recursive_sequence_lengths()
assert np.allclose(np.array(got_max), data.max(axis=1))
assert got_max.recursive_sequence_lengths() == [lengths]
# Reducing dim 0 gives one row: no LoD.
assert np.allclose(np.array(got_total), data.sum(axis=0))
assert got_total.recursive_sequence_lengths() == []
# d loss / d x: 1 at each row's max, plus 1 for every element of the
# row pair holding each sequence's largest pair value.
want_dx = (data == data.max(axis=1, keepdims=True)).astype('float32')
starts = [0, 1]
for seq, (start, n) in enumerate(zip(starts, [1, 2])):
    block = want_pairs[start:start + n]
    best = np.argmax(block, axis=0)
    for col in range(2):
        row = 2 * (start + best[col]) + col
        want_dx[row] += 1.0
assert np.allclose(np.array(got_dx), want_dx), (np.array(got_dx), want_dx)
assert got_dx.recursive_sequence_lengths() == [lengths]
print('ok')
