# elementwise_max / elementwise_min gradients when y broadcasts over x
# from a leading or a middle axis (issue 38), checked against 1.x's
# formulas in numpy: max's dx = dout * (x > y), dy = sum of dout * (x <= y)
# over the broadcast dims; min's dx = dout * (x < y), dy = sum of
# dout * (x >= y) (MaxGradDx/MaxGradDy, MinGradDx/MinGradDy in
# paddle/fluid/operators/elementwise/elementwise_max_op.h and
# elementwise_min_op.h, v1.2-v1.8). Paddle 3.3.1's grad is wrong for
# these axes (wrong numbers for square shapes, "Broadcast dimension
# mismatch" otherwise), so this runs in fluidc only. Ties (x == y) are
# included: their gradient goes to y.
import numpy as np
import paddle.fluid as fluid
import paddle.fluid.layers as layers

rng = np.random.RandomState(38)
cases = [  # (x shape, y shape, axis)
    ([2, 3, 4], [2], 0),
    ([2, 3, 4], [3], 1),
    ([2, 3, 4], [2, 3], 0),
    ([3, 3], [3], 0),
    ([2, 3, 4], [3, 4], 1),
    ([2, 3, 4], [4], -1),
]
feeds, outs, checks = {}, [], []
terms = []
for i, (xs, ys, axis) in enumerate(cases):
    xv = np.round(rng.uniform(-2, 2, xs), 1).astype('float32')
    yv = np.round(rng.uniform(-2, 2, ys), 1).astype('float32')
    # A tie in every case: x takes y's first value at y's first position.
    xv.reshape(-1)[0] = yv.reshape(-1)[0]
    weight = rng.uniform(0.5, 1.5, xs).astype('float32')
    feeds['x%d' % i], feeds['y%d' % i] = xv, yv
    x = layers.data(name='x%d' % i, shape=xs, dtype='float32', append_batch_size=False)
    y = layers.data(name='y%d' % i, shape=ys, dtype='float32', append_batch_size=False)
    x.stop_gradient = y.stop_gradient = False
    w = layers.assign(weight)
    for kind, layer in [('max', layers.elementwise_max), ('min', layers.elementwise_min)]:
        out = layer(x, y, axis=axis)
        terms.append(layers.reduce_sum(layers.elementwise_mul(out, w)))
        outs.append(out)
        checks.append((kind, xv, yv, axis, weight))
loss = layers.sums(terms)
grads = fluid.backward.append_backward(loss)
grad_names = []
for i in range(len(cases)):
    grad_names += ['x%d@GRAD' % i, 'y%d@GRAD' % i]

exe = fluid.Executor(fluid.CPUPlace())
exe.run(fluid.default_startup_program())
got = exe.run(feed=feeds, fetch_list=outs + grad_names)
got_outs, got_grads = got[:len(outs)], got[len(outs):]

want_dx = [np.zeros_like(feeds['x%d' % i], dtype='float64') for i in range(len(cases))]
want_dy = [np.zeros_like(feeds['y%d' % i], dtype='float64') for i in range(len(cases))]
for j, (kind, xv, yv, axis, weight) in enumerate(checks):
    i = j // 2
    a = xv.ndim - yv.ndim if axis == -1 else axis
    yb = yv.reshape([1] * a + list(yv.shape) + [1] * (xv.ndim - a - yv.ndim))
    reduced = tuple(range(a)) + tuple(range(a + yv.ndim, xv.ndim))
    if kind == 'max':
        out, to_x = np.maximum(xv, yb), xv > yb
    else:
        out, to_x = np.minimum(xv, yb), xv < yb
    assert np.array_equal(got_outs[j], out), (kind, cases[i], got_outs[j], out)
    want_dx[i] += weight * to_x
    want_dy[i] += (weight * ~to_x).sum(axis=reduced)
for i in range(len(cases)):
    dx, dy = got_grads[2 * i], got_grads[2 * i + 1]
    assert np.allclose(dx, want_dx[i], atol=1e-6), (cases[i], dx, want_dx[i])
    assert dy.shape == want_dy[i].shape, (cases[i], dy.shape)
    assert np.allclose(dy, want_dy[i], atol=1e-5), (cases[i], dy, want_dy[i])
print('ok')
