# fluid.optimizer.DecayedAdagradOptimizer (as 2018's test_optimizer.py and
# the book's regression examples built it): a two-layer regression trained
# on fixed data, a parameter with its own learning rate, another optimizer
# with its decay and epsilon given, and the moment accumulators after
# training.
import numpy as np
import paddle.fluid as fluid
import paddle.fluid.layers as layers


def build(optimizer, seed):
    main, startup = fluid.Program(), fluid.Program()
    main.random_seed = startup.random_seed = seed
    with fluid.program_guard(main, startup):
        x = layers.data(name='x', shape=[4], dtype='float32')
        y = layers.data(name='y', shape=[1], dtype='float32')
        h = layers.fc(input=x, size=6, act='tanh',
                      param_attr=fluid.ParamAttr(name='w1', learning_rate=1.5))
        pred = layers.fc(input=h, size=1, param_attr=fluid.ParamAttr(name='w2'))
        loss = layers.mean(layers.square_error_cost(input=pred, label=y))
        ops, params_grads = optimizer.minimize(loss)
    return main, startup, loss, ops, params_grads


rng = np.random.RandomState(11)
xs = rng.uniform(-1, 1, (16, 4)).astype('float32')
ys = (xs.sum(axis=1, keepdims=True) * 0.5 + 0.1).astype('float32')
exe = fluid.Executor(fluid.CPUPlace())
for opt in [fluid.optimizer.DecayedAdagradOptimizer(learning_rate=0.05),
            fluid.optimizer.DecayedAdagrad(learning_rate=0.1, decay=0.8, epsilon=1e-4)]:
    main, startup, loss, ops, params_grads = build(opt, 5)
    print([op.type for op in main.global_block().ops if 'adagrad' in op.type or op.type == 'scale'])
    print([(op.attr('decay'), op.attr('epsilon')) for op in main.global_block().ops
           if op.type == 'decayed_adagrad'][:1])
    print(sorted(p.name for p, g in params_grads))
    moments = sorted(v.name for v in main.list_vars() if 'moment' in v.name)
    print(moments)
    scope = fluid.Scope()
    with fluid.scope_guard(scope):
        exe.run(startup)
        for step in range(5):
            l, = exe.run(main, feed={'x': xs, 'y': ys}, fetch_list=[loss])
            print(step, np.round(l, 6))
        for name in moments[2:] + ['w2']:
            print(name, np.round(np.array(scope.find_var(name).get_tensor()).ravel()[:4], 6))
