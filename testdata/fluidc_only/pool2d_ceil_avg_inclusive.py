# Average pool2d with exclusive=False and ceil_mode=True, where windows
# hang over the input's edge (issue 38). fluidc only: Paddle 1.x's
# Pool2dFunctor divided every window's sum by ksize_h * ksize_w when
# exclusive was off (paddle/fluid/operators/math/pooling.cc, v1.0 to
# v1.5: "(exclusive || adaptive) ? (hend - hstart) * (wend - wstart) :
# ksize_height * ksize_width"), and its grad gave each covered cell
# dout / (ksize_h * ksize_w); Paddle 3.3.1 counts only the part of the
# window inside the padded input, so it prints other numbers. Checked
# against that formula in numpy, on a 1x1 map and a 3x3 one.
import numpy as np
import paddle.fluid as fluid
import paddle.fluid.layers as layers

K, S = 2, 2


def pool_1x(a):
    n, c, h, w = a.shape
    oh, ow = (h - K + S - 1) // S + 1, (w - K + S - 1) // S + 1
    out = np.zeros([n, c, oh, ow], dtype='float64')
    grad = np.zeros(a.shape, dtype='float64')
    for i in range(oh):
        for j in range(ow):
            win = (slice(None), slice(None), slice(i * S, min(i * S + K, h)),
                   slice(j * S, min(j * S + K, w)))
            out[:, :, i, j] = a[win].sum(axis=(2, 3)) / (K * K)
            grad[win] += 1.0 / (K * K)
    return out, grad


small = np.array([[[[1.5]], [[-2.0]]]], dtype='float32')
big = np.arange(18, dtype='float32').reshape(1, 2, 3, 3) / 4.0 - 1.0
x1 = layers.data(name='x1', shape=[2, 1, 1], dtype='float32')
x3 = layers.data(name='x3', shape=[2, 3, 3], dtype='float32')
outs = []
for x in [x1, x3]:
    x.stop_gradient = False
    outs.append(layers.pool2d(input=x, pool_size=K, pool_type='avg', pool_stride=S,
                              ceil_mode=True, exclusive=False))
assert outs[0].shape == (-1, 2, 1, 1) and outs[1].shape == (-1, 2, 2, 2), \
    (outs[0].shape, outs[1].shape)
fluid.backward.append_backward(layers.sums([layers.reduce_sum(o) for o in outs]))

exe = fluid.Executor(fluid.CPUPlace())
exe.run(fluid.default_startup_program())
got = exe.run(feed={'x1': small, 'x3': big}, fetch_list=outs + ['x1@GRAD', 'x3@GRAD'])
for a, out, dx in [(small, got[0], got[2]), (big, got[1], got[3])]:
    want, want_grad = pool_1x(a)
    assert np.allclose(out, want, atol=1e-6), (out, want)
    assert np.allclose(dx, want_grad, atol=1e-6), (dx, want_grad)
print('ok')
