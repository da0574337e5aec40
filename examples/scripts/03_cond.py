# 03: seed 003's `cond`: the larger of two numbers, chosen in the program
# by two conditional blocks. The script feeds x and y from numpy.
#
#     fluidc run examples/scripts/03_cond.py
#
import numpy as np
import paddle.fluid as fluid

x = fluid.layers.data(name='x', shape=[1], dtype='int64', append_batch_size=False)
y = fluid.layers.data(name='y', shape=[1], dtype='int64', append_batch_size=False)

# cond(pred, true_fn, false_fn): each branch builds its own ops; only the
# taken one runs.
larger = fluid.layers.cond(x < y, lambda: y, lambda: x)

exe = fluid.Executor(fluid.CPUPlace())
for a, b in [(3, 7), (9, 2), (5, 5)]:
    out, = exe.run(feed={'x': np.array([a]), 'y': np.array([b])},
                   fetch_list=[larger])
    print("max(%d, %d) = %d" % (a, b, out[0]))
