# A book notebook turned into a script (2018-19): it draws its cost curves
# with paddle.utils.plot.Ploter, and runs as a script with DISABLE_PLOT=True
# (1.x's own switch: nothing is drawn or imported). Without it Ploter needs
# matplotlib, as in 1.x. fluidc only: Paddle 3.3.1 has no paddle.utils.plot.
# Also 1.x's message for a program passed without calling it.
import os
import numpy as np
import paddle.fluid as fluid

os.environ.pop('DISABLE_PLOT', None)
from paddle.utils.plot import Ploter
try:
    Ploter('Train cost')
except ImportError as e:
    print('ImportError', e.name)

os.environ['DISABLE_PLOT'] = 'True'
train_title, test_title = 'Train cost', 'Test cost'
plot_cost = Ploter(train_title, test_title)

x = fluid.layers.data(name='x', shape=[13], dtype='float32')
y = fluid.layers.data(name='y', shape=[1], dtype='float32')
cost = fluid.layers.mean(fluid.layers.square_error_cost(fluid.layers.fc(x, 1), y))
fluid.optimizer.SGD(0.01).minimize(cost)
exe = fluid.Executor(fluid.CPUPlace())
try:
    exe.run(fluid.default_startup_program)
except TypeError as e:
    print(e)
exe.run(fluid.default_startup_program())
rng = np.random.RandomState(0)
for step in range(3):
    c, = exe.run(feed={'x': rng.rand(4, 13).astype('float32'), 'y': rng.rand(4, 1).astype('float32')},
                 fetch_list=[cost])
    plot_cost.append(train_title, step, c[0])
    assert plot_cost.plot() is None
data = plot_cost.__plot_data__
print(data[train_title].step, len(data[train_title].value), data[test_title].step)
plot_cost.reset()
print(data[train_title].step)
