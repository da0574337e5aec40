# The shape an elementwise op declares when one operand has a -1 dim
# (issue 38) follows Paddle 1.x: its ElementwiseOp::InferShape enforced
# rank(X) >= rank(Y) and declared Out with X's dims ("ctx->SetOutputDim(
# "Out", x_dim)" / "ShareDim("X", "Out")", paddle/fluid/operators/
# elementwise_op.h, later elementwise/elementwise_op.h, v1.0-v1.5).
# Paddle 3.3.1 broadcasts the declared dims, so x[-1, 1] + y[2, 1]
# declares (2, 1) there and (-1, 1) in 1.x: this runs in fluidc only. The
# values are checked against numpy.
import numpy as np
import paddle.fluid as fluid
import paddle.fluid.layers as layers


def data(name, shape):
    return layers.data(name=name, shape=shape, dtype='float32', append_batch_size=False)


x = data('x', [-1, 1])
y = data('y', [2, 1])
x2 = data('x2', [2, 1])
y2 = data('y2', [-1, 1])
b = data('b', [-1, 3])
c = data('c', [3])
cases = [
    (layers.elementwise_add(x, y), (-1, 1)),
    (layers.elementwise_mul(x, y), (-1, 1)),
    (layers.elementwise_sub(x2, y2), (2, 1)),
    (layers.elementwise_max(b, c), (-1, 3)),
]
for out, want in cases:
    assert out.shape == want, (out.shape, want)

feed = {'x': np.array([[1.5], [-2.0]], dtype='float32'),
        'y': np.array([[0.25], [4.0]], dtype='float32'),
        'x2': np.array([[3.0], [1.0]], dtype='float32'),
        'y2': np.array([[0.5], [-1.0]], dtype='float32'),
        'b': np.array([[1.0, -2.0, 3.0], [0.0, 5.0, -1.0]], dtype='float32'),
        'c': np.array([0.5, 0.5, 0.5], dtype='float32')}
exe = fluid.Executor(fluid.CPUPlace())
exe.run(fluid.default_startup_program())
got = exe.run(feed=feed, fetch_list=[out for out, _ in cases])
want = [feed['x'] + feed['y'], feed['x'] * feed['y'], feed['x2'] - feed['y2'],
        np.maximum(feed['b'], feed['c'])]
for g, w in zip(got, want):
    assert g.shape == w.shape and np.allclose(g, w), (g, w)
print('ok')
