# fluid.layers.nce's samplers with a fixed seed: Paddle draws the negative
# classes from mt19937_64(seed) afresh each run (uniform_int_distribution
# for "uniform", an inverse transform of uniform_real_distribution for
# "log_uniform"), so the sampled labels and the costs are reproducible.
# Prints both for two runs of each sampler, and the weights after two SGD
# steps.
from __future__ import print_function

import numpy as np
import paddle.fluid as fluid


def fmt(values):
    return ' '.join('%.5f' % v for v in np.array(values).flatten())


for sampler in ['uniform', 'log_uniform']:
    main, startup = fluid.Program(), fluid.Program()
    with fluid.program_guard(main, startup):
        x = fluid.layers.data(name='x', shape=[3], dtype='float32')
        y = fluid.layers.data(name='y', shape=[2], dtype='int64')
        cost = fluid.layers.nce(input=x, label=y, num_total_classes=40, num_neg_samples=5,
                                param_attr=fluid.ParamAttr(
                                    name='w_' + sampler,
                                    initializer=fluid.initializer.Constant(0.1)),
                                sampler=sampler, seed=7)
        op = [o for o in main.global_block().ops if o.type == 'nce'][0]
        labels = main.global_block().var(op.output('SampleLabels')[0])
        avg = fluid.layers.mean(cost)
        fluid.optimizer.SGD(learning_rate=1.0).minimize(avg)
    exe = fluid.Executor(fluid.CPUPlace())
    exe.run(startup)
    rng = np.random.RandomState(5)
    for step in range(2):
        xs = rng.uniform(-1, 1, size=(3, 3)).astype('float32')
        ys = rng.randint(0, 40, size=(3, 2)).astype('int64')
        c, l = exe.run(main, feed={'x': xs, 'y': ys}, fetch_list=[cost, labels])
        print(sampler, step, 'labels', l.tolist())
        print(sampler, step, 'cost', fmt(c))
    w = np.array(fluid.global_scope().find_var('w_' + sampler).get_tensor())
    print(sampler, 'weight sums', fmt(w.sum(axis=1)))
