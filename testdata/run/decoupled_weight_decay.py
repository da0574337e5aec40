# AdamW the 1.6 way: fluid.contrib.extend_with_decoupled_weight_decay
# over fluid.optimizer.Adam (and SGD), decaying only the weights (not
# the biases) of a small regression net; the parameters after a few
# steps against plain Adam's show the decay.
from __future__ import print_function

import numpy as np
import paddle.fluid as fluid

place = fluid.CPUPlace()
exe = fluid.Executor(place)
rng = np.random.RandomState(7)
xs = rng.uniform(-1, 1, size=(16, 4)).astype('float32')
ys = (xs.dot(np.array([[0.5], [-1.0], [2.0], [0.25]])) + 0.3).astype('float32')


def train(make_optimizer, steps=5):
    main, startup = fluid.Program(), fluid.Program()
    with fluid.program_guard(main, startup):
        x = fluid.layers.data(name='x', shape=[4], dtype='float32')
        y = fluid.layers.data(name='y', shape=[1], dtype='float32')
        hidden = fluid.layers.fc(input=x, size=3, act='tanh',
                                 param_attr=fluid.ParamAttr(
                                     name='w1', initializer=fluid.initializer.Constant(0.2)),
                                 bias_attr=fluid.ParamAttr(
                                     name='b1', initializer=fluid.initializer.Constant(0.1)))
        pred = fluid.layers.fc(input=hidden, size=1,
                               param_attr=fluid.ParamAttr(
                                   name='w2', initializer=fluid.initializer.Constant(-0.3)),
                               bias_attr=fluid.ParamAttr(
                                   name='b2', initializer=fluid.initializer.Constant(0.0)))
        loss = fluid.layers.mean(fluid.layers.square_error_cost(input=pred, label=y))
        opt = make_optimizer()
        optimize_ops, params_grads = opt.minimize(loss)
    print(sorted(p.name for p, g in params_grads), len(optimize_ops) > 0)
    scope = fluid.core.Scope()
    with fluid.scope_guard(scope):
        exe.run(startup)
        for step in range(steps):
            l, = exe.run(main, feed={'x': xs, 'y': ys}, fetch_list=[loss])
            print(step, round(float(l[0]), 5))
        for name in ['w1', 'b1', 'w2', 'b2']:
            print(name, np.round(np.array(scope.find_var(name).get_tensor()), 5).ravel().tolist())


AdamW = fluid.contrib.extend_with_decoupled_weight_decay(fluid.optimizer.Adam)
SGDW = fluid.contrib.extend_with_decoupled_weight_decay(fluid.optimizer.SGDOptimizer)
only_weights = lambda name: name.startswith('w')
train(lambda: fluid.optimizer.Adam(learning_rate=0.05))
train(lambda: AdamW(weight_decay=0.1, learning_rate=0.05, apply_decay_param_fun=only_weights))
train(lambda: SGDW(0.2, learning_rate=0.1))
print(issubclass(AdamW, fluid.optimizer.Adam))
for bad in [3, 'adam']:
    try:
        fluid.contrib.extend_with_decoupled_weight_decay(bad)
    except TypeError as e:
        print('TypeError')
try:
    AdamW(weight_decay=1, learning_rate=0.1)
except TypeError as e:
    print('TypeError', e)
