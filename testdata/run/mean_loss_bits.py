# A loss is a mean: fluidc's full float32 mean and sum add in the order
# Paddle's CPU kernels do (Eigen's 8-lane packets), so the printed losses
# match Paddle's to the last digit, not one ulp apart.
from __future__ import print_function

import numpy as np
import paddle.fluid as fluid

np.random.seed(1)
x = fluid.layers.data(name='x', shape=[1], dtype='float32')
m = fluid.layers.mean(x)
s = fluid.layers.reduce_sum(x)
exe = fluid.Executor(fluid.CPUPlace())
for n in [3, 8, 13, 20, 64, 100, 1000]:
    v = (np.random.rand(n, 1) * 100).astype('float32')
    a, b = exe.run(feed={'x': v}, fetch_list=[m, s])
    print(n, repr(float(a)), repr(float(b)))
big = (np.random.rand(5000, 1) * 100).astype('float32')
print(5000, repr(float(exe.run(feed={'x': big}, fetch_list=[m])[0])))
