# Elementwise operands whose declared dims do not broadcast (issue 37).
# The 2019 transformer declares its attention bias for config.py's 8 heads
# and adds it to the product of the 2 heads train.py's options asked for.
# Paddle 1.x's ElementwiseOp::InferShape only enforced rank(X) >= rank(Y)
# and gave Out X's dims ("ctx->ShareDim("X", "Out")", paddle/fluid/
# operators/elementwise/elementwise_op.h, v1.4-v1.6); the kernel met the
# fed values, which fit. Paddle 3.3.1 refuses the program when it is
# built, so this runs in fluidc only; the values are checked against numpy.
import numpy as np
import paddle.fluid as fluid
import paddle.fluid.layers as layers


def data(name, shape, dtype='float32'):
    return layers.data(name=name, shape=shape, dtype=dtype, append_batch_size=False)


prod = data('prod', [-1, 2, 4, 4])
bias = data('bias', [-1, 8, 4, 4])
x = data('x', [3, 5])
y = data('y', [4])
i = data('i', [-1, 3], 'int64')
j = data('j', [-1, 2], 'int64')
cases = [
    (prod + bias, (-1, 2, 4, 4)),
    (layers.elementwise_mul(x, y), (3, 5)),
    (layers.elementwise_sub(bias, prod), (-1, 8, 4, 4)),
    (layers.less_than(i, j), (-1, 3)),
]
for out, want in cases:
    assert out.shape == want, (out.shape, want)

rng = np.random.RandomState(37)
feed = {'prod': rng.randn(2, 2, 4, 4).astype('float32'),
        'bias': rng.randn(2, 2, 4, 4).astype('float32'),
        'x': rng.randn(3, 4).astype('float32'),
        'y': rng.randn(4).astype('float32'),
        'i': np.array([[1, 5], [7, 2]], dtype='int64'),
        'j': np.array([[3, 3], [3, 3]], dtype='int64')}
exe = fluid.Executor(fluid.CPUPlace())
exe.run(fluid.default_startup_program())
got = exe.run(feed=feed, fetch_list=[out for out, _ in cases])
want = [feed['prod'] + feed['bias'], feed['x'] * feed['y'],
        feed['bias'] - feed['prod'], feed['i'] < feed['j']]
for g, w in zip(got, want):
    assert g.shape == w.shape and g.dtype == w.dtype and np.allclose(g, w), (g, w)

# Fed values that do not broadcast are the kernel's error, as in 1.x.
feed['bias'] = rng.randn(2, 8, 4, 4).astype('float32')
try:
    exe.run(feed=feed, fetch_list=[cases[0][0]])
    raise AssertionError('[2, 2, 4, 4] + [2, 8, 4, 4] ran')
except fluid.core.EnforceNotMet as e:
    assert 'do not broadcast' in str(e), e
print('ok')
