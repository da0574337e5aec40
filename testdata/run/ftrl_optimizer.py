# fluid.optimizer.FtrlOptimizer (as 2018's test_optimizer.py and the CTR
# examples built it): a small fc regression trained on fixed data with
# l1/l2 shrinkage, one with lr_power -0.6 and its own l2 (1.x passed l1 as
# the op's l2), the Ftrl alias, and the accumulators after training.
import numpy as np
import paddle.fluid as fluid
import paddle.fluid.layers as layers


rng = np.random.RandomState(3)
xs = rng.uniform(-1, 1, (20, 5)).astype('float32')
ys = (xs.dot(np.array([[0.5], [-1.0], [0.3], [0.0], [2.0]])) + 0.2).astype('float32')


def build(optimizer, seed):
    main, startup = fluid.Program(), fluid.Program()
    main.random_seed = startup.random_seed = seed
    with fluid.program_guard(main, startup):
        x = layers.data(name='x', shape=[5], dtype='float32')
        y = layers.data(name='y', shape=[1], dtype='float32')
        h = layers.fc(input=x, size=8, act='relu', param_attr=fluid.ParamAttr(name='w1'))
        cost = layers.square_error_cost(
            input=layers.fc(input=h, size=1, param_attr=fluid.ParamAttr(name='w2')), label=y)
        avg_cost = layers.mean(cost)
        params_grads = optimizer.minimize(avg_cost)[1]
    return main, startup, avg_cost, params_grads


exe = fluid.Executor(fluid.CPUPlace())
for opt in [fluid.optimizer.FtrlOptimizer(learning_rate=0.1, l1=0.01, l2=0.01),
            fluid.optimizer.Ftrl(learning_rate=0.05, l1=0.001, l2=0.5, lr_power=-0.6)]:
    main, startup, loss, params_grads = build(opt, 7)
    ftrl_ops = [op for op in main.global_block().ops if op.type == 'ftrl']
    print(len(ftrl_ops), sorted(p.name for p, g in params_grads))
    print([(round(op.attr('l1'), 6), round(op.attr('l2'), 6), round(op.attr('lr_power'), 6))
           for op in ftrl_ops][:1])
    accs = sorted(v.name for v in main.list_vars() if 'squared' in v.name or 'linear' in v.name)
    print(accs)
    scope = fluid.Scope()
    with fluid.scope_guard(scope):
        exe.run(startup)
        losses = [exe.run(main, feed={'x': xs, 'y': ys}, fetch_list=[loss])[0]
                  for _ in range(5)]
    print(np.round(np.concatenate(losses), 5))
    for name in ['w1', 'w2'] + accs[:2]:
        v = np.array(scope.find_var(name).get_tensor()).ravel()
        print(name, np.round(v[:5], 4), int((v == 0).sum()))
