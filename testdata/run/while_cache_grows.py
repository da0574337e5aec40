# A decoder cache grown in a While block, as the 2019 transformer's
# fast_decode grew its per-layer "k"/"v" caches: made by
# fill_constant_batch_size_like, then overwritten each step by assign of a
# concat one step longer. Paddle 1.x gave the cache's desc the dims of the
# last op that wrote it and checked shapes when the ops ran.
import numpy as np
import paddle.fluid as fluid
import paddle.fluid.layers as layers

src = layers.data(name="src", shape=[1], dtype="int64")
cache = layers.fill_constant_batch_size_like(
    input=src, shape=[-1, 2, 1, 3], dtype="float32", value=0.5)
step = layers.fill_constant(shape=[1], dtype="int64", value=0)
limit = layers.fill_constant(shape=[1], dtype="int64", value=3)
cond = layers.less_than(x=step, y=limit)
while_op = layers.While(cond)
with while_op.block():
    new_k = layers.fill_constant_batch_size_like(
        input=src, shape=[-1, 2, 1, 3], dtype="float32", value=1.0)
    new_k = layers.scale(new_k, scale=2.0)
    grown = layers.concat([cache, new_k], axis=2)
    layers.assign(grown, cache)
    layers.increment(x=step, value=1, in_place=True)
    layers.less_than(x=step, y=limit, cond=cond)
total = layers.reduce_sum(cache)

exe = fluid.Executor(fluid.CPUPlace())
exe.run(fluid.default_startup_program())
for batch in [[[1], [2]], [[4], [5], [6]]]:
    out, s = exe.run(feed={"src": np.array(batch, dtype="int64")},
                     fetch_list=[cache, total])
    print(out.shape, s)
    print(out[0, 1, :, 0])
