# fluid.layers.argsort, reverse, range, linspace, eye, diag, isfinite,
# has_inf and has_nan (1.x's tensor.py layers), as a 2019 script would use
# them: rank scores, flip a feature map and train through it, build index
# and grid tensors, and check a batch for inf/nan before a step.
import numpy as np
import paddle.fluid as fluid

scores = fluid.layers.data(name='scores', shape=[3, 4], dtype='float32', append_batch_size=False)
scores.stop_gradient = False
ranked, order = fluid.layers.argsort(scores, axis=1)
by_column, column_order = fluid.layers.argsort(scores, axis=0)
flipped = fluid.layers.reverse(scores, axis=[0, 1])
mirrored = fluid.layers.reverse(scores, axis=1)
steps = fluid.layers.range(0, 10, 3, 'int32')
offsets = fluid.layers.range(1.0, 2.0, 0.25, 'float32')
countdown = fluid.layers.range(5, 1, -2, 'int64')
grid = fluid.layers.linspace(0.0, 1.0, 7, 'float32')
single = fluid.layers.linspace(2.5, 1.0, 1, 'float64')
mask = fluid.layers.eye(3, 4, dtype='int64')
identity = fluid.layers.eye(2)
weights = fluid.layers.diag(fluid.layers.assign(np.array([1.5, -2.0, 3.0], dtype='float32')))
finite = fluid.layers.isfinite(scores)
has_inf = fluid.layers.has_inf(scores)
has_nan = fluid.layers.has_nan(scores)
target = fluid.layers.assign(np.arange(12, dtype='float32').reshape(3, 4))
loss = fluid.layers.reduce_sum(flipped * target)
fluid.backward.append_backward(loss)

exe = fluid.Executor(fluid.CPUPlace())
batch = np.array([[3, 1, 2, 0.5], [-1, 4, 4, 2], [0, -3, 7, 1]], dtype='float32')
fetched = exe.run(feed={'scores': batch},
                  fetch_list=[ranked, order, by_column, column_order, flipped, mirrored, steps, offsets,
                              countdown, grid, single, mask, identity, weights, finite, has_inf, has_nan,
                              'scores@GRAD'])
names = ['ranked', 'order', 'by_column', 'column_order', 'flipped', 'mirrored', 'steps', 'offsets',
         'countdown', 'grid', 'single', 'mask', 'identity', 'weights', 'finite', 'has_inf', 'has_nan',
         'scores@GRAD']
for name, value in zip(names, fetched):
    # linspace: 1.x added the step up from Start, Paddle 3.3.1 counts half of
    # the values back from Stop; they agree to float32's last bits.
    shown = value.tolist() if value.dtype == np.bool_ else np.round(value, 6).tolist()
    print(name, value.dtype, value.shape, shown)
bad = batch.copy()
bad[1, 2] = np.inf
print('inf batch', [v.tolist() for v in exe.run(feed={'scores': bad}, fetch_list=[finite, has_inf, has_nan])])
bad[0, 0] = np.nan
print('nan batch', [v.tolist() for v in exe.run(feed={'scores': bad}, fetch_list=[finite, has_inf, has_nan])])
