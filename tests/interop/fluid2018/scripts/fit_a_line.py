# The fit-a-line regression of the 2018 book chapter 1, forward pass only.
import numpy as np
import paddle.fluid as fluid

x = fluid.layers.data(name='x', shape=[13], dtype='float32')
y = fluid.layers.data(name='y', shape=[1], dtype='float32')

hidden = fluid.layers.fc(input=x, size=8, act='relu')
y_predict = fluid.layers.fc(input=hidden, size=1, act=None)
cost = fluid.layers.square_error_cost(input=y_predict, label=y)
avg_cost = fluid.layers.mean(cost)

place = fluid.CPUPlace()
exe = fluid.Executor(place)
exe.run(fluid.default_startup_program())
feed = {
    'x': np.array([[0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0, 1.1, 1.2, 1.3]],
                  dtype='float32'),
    'y': np.array([[2.5]], dtype='float32'),
}
loss, = exe.run(fluid.default_main_program(), feed=feed, fetch_list=[avg_cost])
