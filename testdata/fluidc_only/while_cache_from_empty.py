# The 2019 transformer's fast_decode caches start empty: made by
# fill_constant_batch_size_like(shape=[-1, n_head, 0, d_key]) and
# overwritten in the While block by assign of a concat one step longer.
# Paddle 1.x gave the cache's desc the dims of the last op that wrote it
# and met the shapes when the ops ran (issue 37). Paddle 3.3.1 fails on
# the empty tensor ("Tensor's dimension is out of bound"), so this runs in
# fluidc only; the values are checked against numpy.
import numpy as np
import paddle.fluid as fluid
import paddle.fluid.layers as layers

src = layers.data(name="src", shape=[1], dtype="int64")
cache = layers.fill_constant_batch_size_like(
    input=src, shape=[-1, 2, 0, 3], dtype="float32", value=0)
step = layers.fill_constant(shape=[1], dtype="int64", value=0)
limit = layers.fill_constant(shape=[1], dtype="int64", value=3)
cond = layers.less_than(x=step, y=limit)
while_op = layers.While(cond)
with while_op.block():
    new_k = layers.fill_constant_batch_size_like(
        input=src, shape=[-1, 2, 1, 3], dtype="float32", value=1.0)
    new_k = layers.scale(new_k, scale=2.0)
    layers.assign(layers.concat([cache, new_k], axis=2), cache)
    layers.increment(x=step, value=1, in_place=True)
    layers.less_than(x=step, y=limit, cond=cond)

exe = fluid.Executor(fluid.CPUPlace())
exe.run(fluid.default_startup_program())
out, = exe.run(feed={"src": np.array([[1], [2], [3]], dtype="int64")},
               fetch_list=[cache])
want = np.concatenate([np.zeros((3, 2, 0, 3), "float32")] +
                      [np.full((3, 2, 1, 3), 2.0, "float32")] * 3, axis=2)
assert out.shape == want.shape and np.array_equal(out, want), (out.shape, out)
print('ok')
