# numpy.random and random give numpy's and CPython's numbers for a seed; the
# drawn arrays are fed and the results printed.
import random
import numpy as np
import paddle.fluid as fluid

np.random.seed(90)
random.seed(7)
x = fluid.data(name='x', shape=[None, 4], dtype='float32')
y = fluid.layers.elementwise_mul(x, x)

exe = fluid.Executor(fluid.CPUPlace())
exe.run(fluid.default_startup_program())
for step in range(2):
    batch = np.random.rand(3, 4).astype('float32')
    noise = np.random.randn(3, 4).astype('float32') * 0.01
    out, = exe.run(feed={'x': batch + noise}, fetch_list=[y])
    print(step, out)
print(np.random.randint(0, 10, size=5), np.random.uniform(-1, 1), np.random.permutation(6))
print(random.random(), random.randint(1, 6), random.choice(['a', 'b', 'c']))
