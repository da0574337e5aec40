# Fed inputs (fluid.data and layers.data), activations, compares and logic ops.
import numpy as np
import paddle.fluid as fluid

x = fluid.data(name='x', shape=[None, 4], dtype='float32')
y = fluid.layers.data(name='y', shape=[4], dtype='float32')          # [-1, 4]
mask = fluid.layers.data(name='mask', shape=[-1, 4], dtype='bool')   # no batch dim added

h = fluid.layers.tanh(x * 0.5 + y)
p = fluid.layers.sigmoid(h)
confident = fluid.layers.logical_or(p > 0.9, p < 0.1)
kept = fluid.layers.logical_and(confident, fluid.layers.logical_not(mask))
score = fluid.layers.mean(fluid.layers.cast(kept, 'float32'))

exe = fluid.Executor(fluid.CPUPlace())
feed = {
    'x': np.array([[1.0, 2.0, 3.0, 4.0]], dtype='float32'),
    'y': np.array([[0.0, -1.0, 0.5, 2.0]], dtype='float32'),
    'mask': np.array([[True, False, False, True]], dtype='bool'),
}
score_value, p_value = exe.run(fluid.default_main_program(), feed=feed, fetch_list=[score, p])
