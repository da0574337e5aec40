# reduce_max / reduce_min gradients with tied elements follow Paddle 1.x
# (issue 38): 1.x's MaxOrMinGradFunctor computed dx = dy * (x == y), so
# each tied element gets the whole gradient ("we pass gradient to all of
# them here", paddle/fluid/operators/reduce_ops/reduce_min_max_op.h in
# v1.2-v1.8, reduce_op.h in v1.0-v1.1). Paddle 3.3.1 splits it evenly
# among the ties, so this runs in fluidc only, checked against 1.x's
# formula in numpy: over one dim, over all dims, and with keep_dim.
import numpy as np
import paddle.fluid as fluid
import paddle.fluid.layers as layers

w_init = np.array([[1.0, 1.0, 0.5], [0.0, 0.0, 0.0]], dtype='float32')
w = layers.create_parameter(
    shape=[2, 3], dtype='float32', name='w',
    default_initializer=fluid.initializer.NumpyArrayInitializer(w_init))
v_init = np.array([[2.0, -1.0, 2.0], [-1.0, 2.0, 0.0]], dtype='float32')
v = layers.create_parameter(
    shape=[2, 3], dtype='float32', name='v',
    default_initializer=fluid.initializer.NumpyArrayInitializer(v_init))
u_init = np.array([[3.0, 3.0], [1.0, 3.0]], dtype='float32')
u = layers.create_parameter(
    shape=[2, 2], dtype='float32', name='u',
    default_initializer=fluid.initializer.NumpyArrayInitializer(u_init))

loss = layers.sums([
    layers.reduce_sum(layers.reduce_max(w, dim=1)),
    layers.scale(layers.reduce_sum(layers.reduce_min(w, dim=1)), scale=10.0),
    layers.scale(layers.reduce_max(v), scale=3.0),
    layers.scale(layers.reduce_min(v), scale=5.0),
    layers.reduce_sum(layers.elementwise_mul(
        layers.reduce_max(u, dim=0, keep_dim=True),
        layers.assign(np.array([[2.0, 7.0]], dtype='float32')))),
])
fluid.backward.append_backward(loss)

exe = fluid.Executor(fluid.CPUPlace())
exe.run(fluid.default_startup_program())
gw, gv, gu = exe.run(fetch_list=['w@GRAD', 'v@GRAD', 'u@GRAD'])


def ties(x, y, dy, axis):
    # 1.x: dy broadcast back over the reduced dims, times (x == y).
    y = np.expand_dims(y, axis) if axis is not None else y
    dy = np.expand_dims(dy, axis) if axis is not None else dy
    return dy * (x == y)


want_w = (ties(w_init, w_init.max(axis=1), np.ones(2), 1)
          + ties(w_init, w_init.min(axis=1), np.full(2, 10.0), 1))
want_v = ties(v_init, v_init.max(), 3.0, None) + ties(v_init, v_init.min(), 5.0, None)
want_u = u_init == u_init.max(axis=0, keepdims=True)
want_u = want_u * np.array([[2.0, 7.0]])
assert np.array_equal(gw, want_w), (gw, want_w)
assert np.array_equal(gw.reshape(-1), [1, 1, 10, 11, 11, 11]), gw
assert np.array_equal(gv, want_v), (gv, want_v)
assert np.array_equal(gu, want_u), (gu, want_u)
print('ok')
