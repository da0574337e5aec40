# A VAE-style noise draw: gaussian_random_batch_size_like takes its batch
# size from the fed input (any input_dim_idx/output_dim_idx), its samples
# follow Normal(mean, std) (1.x's test: the histogram within 0.01 of
# numpy's normal draws, and the sample mean and std), a non-zero seed
# repeats its draws, and float64 works too.
from __future__ import print_function

import numpy as np
import paddle.fluid as fluid

x = fluid.layers.data(name='x', shape=[2000], dtype='float32')
noise = fluid.layers.gaussian_random_batch_size_like(x, shape=[-1, 2000], mean=1.0, std=2.0)
t = fluid.layers.data(name='t', shape=[3, 5], dtype='float32', append_batch_size=False)
moved = fluid.layers.gaussian_random_batch_size_like(
    t, shape=[4, -1, 2], input_dim_idx=1, output_dim_idx=1, seed=7, dtype='float64')
same = fluid.layers.gaussian_random_batch_size_like(
    t, shape=[4, -1, 2], input_dim_idx=1, output_dim_idx=1, seed=7, dtype='float64')
print(noise.shape, moved.shape)

exe = fluid.Executor(fluid.CPUPlace())
exe.run(fluid.default_startup_program())
feed = {'x': np.zeros((300, 2000), dtype='float32'), 't': np.zeros((3, 5), dtype='float32')}
n, m1, m2 = exe.run(feed=feed, fetch_list=[noise, moved, same])
print(n.shape, n.dtype, m1.shape, m1.dtype)



def histogram(values, lo=-3.0, hi=5.0, bins=10):
    edges = np.linspace(lo, hi, bins + 1)
    return np.array([((values >= a) & (values < b)).mean() for a, b in zip(edges[:-1], edges[1:])])


hist = histogram(n)
hist2 = histogram(np.random.normal(size=(300, 2000), loc=1, scale=2))
print('histogram close:', np.allclose(hist, hist2, rtol=0, atol=0.01))
print('mean near 1:', abs(float(n.mean()) - 1.0) < 0.02, 'std near 2:',
      abs(float(n.std()) - 2.0) < 0.02)
print('seed repeats:', bool((m1 == m2).all()), 'later run differs:',
      not np.array_equal(n, exe.run(feed=feed, fetch_list=[noise])[0]))
