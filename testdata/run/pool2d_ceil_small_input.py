# pool2d with ceil_mode=True and a window larger than the input (issue
# 38): a 2x2 window at stride 2 over a 1x1 map gives one output cell (the
# window hangs over the edge); max takes the one value, avg (exclusive)
# divides by the cells inside the input. A 3x3 map gives 2x2 the same way.
# Gradients flow back to the covered cells. (avg with exclusive=False is
# left out: 1.x divided by the whole window, Paddle 3.3.1 by the part
# inside the input; see testdata/fluidc_only/pool2d_ceil_avg_inclusive.py.)
import numpy as np
import paddle.fluid as fluid
import paddle.fluid.layers as layers

small = np.array([[[[1.5]], [[-2.0]]]], dtype='float32')
big = np.arange(18, dtype='float32').reshape(1, 2, 3, 3) / 4.0 - 1.0

x1 = layers.data(name='x1', shape=[2, 1, 1], dtype='float32')
x3 = layers.data(name='x3', shape=[2, 3, 3], dtype='float32')
x1.stop_gradient = False
x3.stop_gradient = False
outs = []
for x in [x1, x3]:
    for pool_type, exclusive in [('max', True), ('avg', True)]:
        outs.append(layers.pool2d(input=x, pool_size=2, pool_type=pool_type,
                                  pool_stride=2, ceil_mode=True, exclusive=exclusive))
for o in outs:
    print(o.shape)
loss = layers.sums([layers.reduce_sum(layers.scale(o, scale=float(i + 1)))
                    for i, o in enumerate(outs)])
fluid.backward.append_backward(loss)

exe = fluid.Executor(fluid.CPUPlace())
exe.run(fluid.default_startup_program())
results = exe.run(feed={'x1': small, 'x3': big},
                  fetch_list=outs + ['x1@GRAD', 'x3@GRAD'])
for r in results:
    print(r.shape)
    print(np.round(r, 4))
