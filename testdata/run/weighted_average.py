# fluid.average.WeightedAverage as 2018 training loops used it: the batch
# losses a run fetched, weighted by batch size, averaged in Python.
import numpy as np
import paddle.fluid as fluid

x = fluid.layers.data(name='x', shape=[2], dtype='float32')
cost = fluid.layers.reduce_mean(fluid.layers.square(x), dim=1)
exe = fluid.Executor(fluid.CPUPlace())
exe.run(fluid.default_startup_program())

avg = fluid.average.WeightedAverage()
batches = [np.array([[1, 2], [3, 4]], dtype='float32'),
           np.array([[0, 2]], dtype='float32'),
           np.array([[1, 1], [2, 2], [3, 3]], dtype='float32')]
for batch in batches:
    c, = exe.run(fluid.default_main_program(), feed={'x': batch}, fetch_list=[cost])
    batch_cost = np.array([c.mean()])  # a (1,) array, as a fetched mean was
    avg.add(value=batch_cost, weight=len(batch))
    print(batch_cost.tolist(), avg.eval().tolist())
# by hand: batch means 7.5, 2, 14/3; (2 * 7.5 + 1 * 2 + 3 * 14/3) / 6 = 31/6
print(avg.eval().tolist())

# Plain numbers, and the example of 1.x's docstring: (2*1 + 4*2) / 3.
avg.reset()
avg.add(value=2.0, weight=1)
avg.add(value=4.0, weight=2)
print('%.6f' % avg.eval())
# Arrays average elementwise.
avg.reset()
avg.add(value=np.array([1.0, 10.0]), weight=3)
avg.add(value=np.array([3.0, 20.0]), weight=1)
print(avg.eval().tolist())

# What 1.x raised.
empty = fluid.average.WeightedAverage()
for call in (lambda: empty.eval(),
             lambda: empty.add(value='1', weight=1),
             lambda: empty.add(value=1.0, weight=np.array([1.0, 2.0])),
             lambda: empty.add(value=1.0, weight=None)):
    try:
        call()
    except ValueError as e:
        print('ValueError:', e)
avg.reset()
try:
    avg.eval()
except ValueError as e:
    print('after reset:', e)
