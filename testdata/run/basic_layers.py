# Small 1.x layers over ops fluidc already runs: leaky_relu, clip, sign,
# zeros_like, ones_like, shape, gather, topk, and seeded uniform_random
# and gaussian_random (the same numbers as Paddle's for the same seed).
import numpy as np
import paddle.fluid as fluid
x = fluid.layers.data(name='x', shape=[5], dtype='float32')
idx = fluid.layers.data(name='idx', shape=[1], dtype='int64', append_batch_size=False)
a = fluid.layers.leaky_relu(x, alpha=0.1)
b = fluid.layers.clip(x, min=-0.5, max=0.5)
c = fluid.layers.sign(x)
d = fluid.layers.zeros_like(x)
e = fluid.layers.ones_like(x)
f = fluid.layers.shape(x)
g = fluid.layers.gather(x, idx)
v, k = fluid.layers.topk(x, k=2)
u = fluid.layers.uniform_random(shape=[2, 3], min=0.0, max=1.0, seed=7)
n = fluid.layers.gaussian_random(shape=[2, 2], seed=3)
exe = fluid.Executor(fluid.CPUPlace())
xv = np.array([[-1.0, 0.25, 2.0, -0.1, 0.0], [3.0, -2.0, 0.5, 0.7, -0.6]], dtype='float32')
outs = exe.run(feed={'x': xv, 'idx': np.array([1], dtype='int64')}, fetch_list=[a, b, c, d, e, f, g, v, k])
for o in outs:
    print(o.dtype, o.tolist())
ru, rn = exe.run(feed={'x': xv, 'idx': np.array([0], dtype='int64')}, fetch_list=[u, n])
print(ru.shape, ru.dtype, bool((ru >= 0).all() and (ru < 1).all()), rn.shape)
print(ru.tolist(), rn.tolist())
