# An optimizer's `name` names its accumulators `<param>_<name>_<acc>_N`
# (1.x's `_add_accumulator`); without one they are `<param>_<acc>_N`.
# The names change nothing else: each still trains as it did.
import numpy as np
import paddle.fluid as fluid


def build(opt):
    main, startup = fluid.Program(), fluid.Program()
    with fluid.program_guard(main, startup):
        x = fluid.layers.data(name='x', shape=[2], dtype='float32')
        y = fluid.layers.data(name='y', shape=[1], dtype='float32')
        pred = fluid.layers.fc(input=x, size=1, param_attr=fluid.ParamAttr(
            name='w', initializer=fluid.initializer.Constant(0.5)), bias_attr=False)
        loss = fluid.layers.mean(fluid.layers.square_error_cost(input=pred, label=y))
        opt.minimize(loss)
    return main, startup, loss


x = np.array([[1, 1], [1, 2], [3, 4], [5, 2]]).astype('float32')
y = np.array([[-2], [-3], [-7], [-7]]).astype('float32')
exe = fluid.Executor(fluid.CPUPlace())
for opt in (fluid.optimizer.Adam(learning_rate=0.1, name='adam_a'),
            fluid.optimizer.Momentum(learning_rate=0.01, momentum=0.9, name='mom'),
            fluid.optimizer.Adagrad(learning_rate=0.1),
            fluid.optimizer.Adamax(learning_rate=0.1, name='amax')):
    main, startup, loss = build(opt)
    print(sorted(v.name for v in main.list_vars()
                 if v.persistable and v.name != 'w' and not v.name.startswith('learning_rate')))
    scope = fluid.Scope()
    with fluid.scope_guard(scope):
        exe.run(startup)
        for _ in range(3):
            out, = exe.run(main, feed={'x': x, 'y': y}, fetch_list=[loss])
        print(np.round(np.array(out).reshape(-1), 4).tolist())
