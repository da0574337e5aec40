# matmul with a 1-D operand and its transpose flag, as Paddle 1.x read it:
# a 1-D X is a row [1, K] and a 1-D Y a column [K, 1] *before* the flags
# apply, so `transpose_x` makes a 1-D X the column [K, 1] and `transpose_y`
# a 1-D Y the row [1, N]; a vector's dim of 1 is then dropped from the
# result. 1.x's own test_matmul_op checked these shapes. fluidc only:
# Paddle 3.3.1's matmul refuses them. Values against numpy, gradients
# against central finite differences of the same program.
import numpy as np
import paddle.fluid as fluid


def as_1x(a, b, tx, ty):
    """numpy's product of the operands as 1.x read them."""
    a2 = a.reshape((-1, 1) if tx else (1, -1)) if a.ndim == 1 else (a.T if tx else a)
    b2 = b.reshape((1, -1) if ty else (-1, 1)) if b.ndim == 1 else (b.T if ty else b)
    out = np.matmul(a2, b2)
    if a.ndim == 1 and out.shape[0] == 1:
        out = out[0]
    if b.ndim == 1 and out.shape[-1] == 1:
        out = out[..., 0]
    return out


def run(case, xv, yv):
    xs, ys, tx, ty = case
    main, startup = fluid.Program(), fluid.Program()
    with fluid.program_guard(main, startup):
        x = fluid.layers.data(name='x', shape=list(xs), dtype='float64',
                              append_batch_size=False, stop_gradient=False)
        y = fluid.layers.data(name='y', shape=list(ys), dtype='float64',
                              append_batch_size=False, stop_gradient=False)
        out = fluid.layers.matmul(x, y, transpose_x=tx, transpose_y=ty)
        loss = fluid.layers.reduce_sum(fluid.layers.square(out))
        fluid.backward.append_backward(loss)
    exe = fluid.Executor(fluid.CPUPlace())
    exe.run(startup)
    return out.shape, exe.run(main, feed={'x': xv, 'y': yv},
                              fetch_list=[out, loss, 'x@GRAD', 'y@GRAD'])


def numeric_grad(case, xv, yv, which, eps=1e-6):
    v = [xv, yv][which]
    g = np.zeros(v.size)
    for i in range(v.size):
        vals = []
        for d in (eps, -eps):
            w = v.copy().reshape(-1)
            w[i] += d
            w = w.reshape(v.shape)
            args = (w, yv) if which == 0 else (xv, w)
            vals.append(float(run(case, *args)[1][1][0]))
        g[i] = (vals[0] - vals[1]) / (2 * eps)
    return g.reshape(v.shape)


np.random.seed(7)
cases = [((3,), (1, 4), True, False),
         ((3,), (3,), True, True),
         ((1,), (1, 4), True, False),
         ((2, 1), (4,), False, True),
         ((2, 5, 1), (4,), False, True),
         ((4,), (4, 2), False, False)]
for case in cases:
    xs, ys, tx, ty = case
    xv = np.random.rand(*xs)
    yv = np.random.rand(*ys)
    shape, (o, l, gx, gy) = run(case, xv, yv)
    want = as_1x(xv, yv, tx, ty)
    assert o.shape == want.shape, (case, o.shape, want.shape)
    assert tuple(shape) == want.shape or (want.shape == () and tuple(shape) == (1,)), shape
    assert np.allclose(o, want), case
    assert np.allclose(gx, numeric_grad(case, xv, yv, 0), atol=1e-5), case
    assert np.allclose(gy, numeric_grad(case, xv, yv, 1), atol=1e-5), case
    print(case, o.shape)
