# fluid.layers.cumsum as 2019 programs used it: running sums along an
# axis (positions from a mask, cumulative scores), exclusive and reversed,
# on float and int64 tensors, and inside a small model trained a few SGD
# steps so its gradient is used.
from __future__ import print_function

import numpy as np
import paddle.fluid as fluid


def fmt(values, digits=4):
    form = '%.' + str(digits) + 'f'
    return ' '.join(form % v for v in np.array(values).flatten())


main = fluid.Program()
startup = fluid.Program()
startup.random_seed = 4
with fluid.program_guard(main, startup):
    x = fluid.layers.data(name='x', shape=[3, 4], dtype='float32')
    mask = fluid.layers.data(name='mask', shape=[5], dtype='int64')
    sums = [
        ('default', fluid.layers.cumsum(x)),
        ('axis 0', fluid.layers.cumsum(x, axis=0)),
        ('axis 1 exclusive', fluid.layers.cumsum(x, axis=1, exclusive=True)),
        ('axis -1 reverse', fluid.layers.cumsum(x, axis=-1, reverse=True)),
        ('axis 2 exclusive reverse', fluid.layers.cumsum(x, axis=2, exclusive=True,
                                                         reverse=True)),
        ('int64 positions', fluid.layers.cumsum(mask, axis=1)),
        ('int64 exclusive', fluid.layers.cumsum(x=mask, exclusive=True)),
    ]
    for what, out in sums:
        print(what, out.shape, out.dtype == (mask.dtype if 'int64' in what else x.dtype))

    hidden = fluid.layers.fc(input=x, size=6, num_flatten_dims=2, act='tanh',
                             param_attr='w', bias_attr='b')
    running = fluid.layers.cumsum(hidden, axis=1, reverse=True)
    pred = fluid.layers.reduce_mean(fluid.layers.cumsum(running, exclusive=True), dim=[1, 2])
    label = fluid.layers.data(name='label', shape=[1], dtype='float32')
    cost = fluid.layers.mean(fluid.layers.square_error_cost(
        fluid.layers.reshape(pred, [-1, 1]), label))
    fluid.optimizer.SGD(learning_rate=0.05).minimize(cost)

rng = np.random.RandomState(8)
feed = {
    'x': rng.uniform(-1, 1, (2, 3, 4)).astype('float32'),
    'mask': (rng.uniform(0, 1, (2, 5)) > 0.4).astype('int64'),
    'label': np.array([[0.5], [-1.0]], dtype='float32'),
}
exe = fluid.Executor(fluid.CPUPlace())
exe.run(startup)
values = exe.run(main, feed=feed, fetch_list=[out for _, out in sums])
for (what, _), v in zip(sums, values):
    print(what, v.shape, v.dtype, fmt(v) if v.dtype == np.float32 else v.flatten().tolist())
for step in range(5):
    c, r = exe.run(main, feed=feed, fetch_list=[cost, running])
    w = np.array(fluid.global_scope().find_var('w').get_tensor())
    print('step %d cost %.5f running %.5f |w| %.4f'
          % (step, float(np.array(c).flatten()[0]), r.mean(), np.abs(w).sum()))
