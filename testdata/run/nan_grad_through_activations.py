# A nan gradient reaching relu, relu6, round and floor from above (issue
# 38): Paddle computes relu's grad as dout * (out > 0) and relu6's as
# dout * (0 < out < 6), a product, so a nan dout stays nan where the unit
# is off as well as where it is on. round's and floor's grads were zero
# grads written as 0 / out (1.0-1.2) or 0 / dout (1.4-1.8) and 0 * dout
# (Paddle 2+); all of them give nan where dout is nan and out is 0, which
# is where this script puts its nans. The nans come from sqrt of a
# negative number above each activation; the other elements get a finite
# gradient.
import numpy as np
import paddle.fluid as fluid
import paddle.fluid.layers as layers

cases = [
    ('relu', layers.relu, [0.5, -0.5, 1.5, -1.5]),
    ('relu6', layers.relu6, [0.5, 7.0, 1.5, -1.5]),
    ('round', layers.round, [0.3, -0.4, 2.6, -1.7]),
    ('floor', layers.floor, [0.5, 0.2, 2.5, -1.5]),
]
# The first two elements go to sqrt(z - 10): nan, with a nan gradient.
shift = layers.assign(np.array([-10.0, -10.0, 10.0, 10.0], dtype='float32'))
feeds, grads, losses = {}, [], []
for name, act, values in cases:
    x = layers.data(name=name, shape=[4], dtype='float32', append_batch_size=False)
    x.stop_gradient = False
    feeds[name] = np.array(values, dtype='float32')
    losses.append(layers.reduce_sum(layers.sqrt(layers.elementwise_add(act(x), shift))))
    grads.append(name + '@GRAD')
fluid.backward.append_backward(layers.sums(losses))

exe = fluid.Executor(fluid.CPUPlace())
exe.run(fluid.default_startup_program())
results = exe.run(feed=feeds, fetch_list=grads + losses)
for (name, _, _), g, l in zip(cases, results[:4], results[4:]):
    print(name, 'loss nan:', np.isnan(l).tolist(), 'grad nan:', np.isnan(g).tolist())
    if name in ('relu', 'relu6'):
        print('  finite part:', np.round(g[2:], 4))
