# Every optimizer on the same small regression, each in its own program
# pair (program_guard) and with fresh names (unique_name.guard), as Paddle's
# own optimizer tests did; seeded Xavier weights, ten steps each.
import numpy as np
import paddle.fluid as fluid

optimizers = [
    ('SGD', lambda: fluid.optimizer.SGD(learning_rate=0.1)),
    ('Momentum', lambda: fluid.optimizer.Momentum(learning_rate=0.1, momentum=0.9, use_nesterov=True)),
    ('Adam', lambda: fluid.optimizer.AdamOptimizer(learning_rate=0.05)),
    ('Adamax', lambda: fluid.optimizer.Adamax(learning_rate=0.1)),
    ('Adagrad', lambda: fluid.optimizer.Adagrad(learning_rate=0.1)),
    ('RMSProp', lambda: fluid.optimizer.RMSProp(learning_rate=0.05, centered=True, momentum=0.1)),
    ('Adadelta', lambda: fluid.optimizer.Adadelta(learning_rate=1.0)),
    ('Lamb', lambda: fluid.optimizer.Lamb(learning_rate=0.05)),
]

xs = np.random.RandomState(1).rand(8, 3).astype('float32')
ys = xs.sum(axis=1, keepdims=True)
exe = fluid.Executor(fluid.CPUPlace())
for name, make in optimizers:
    main, startup = fluid.Program(), fluid.Program()
    startup.random_seed = 5
    with fluid.program_guard(main, startup), fluid.unique_name.guard():
        x = fluid.layers.data(name='x', shape=[3], dtype='float32')
        y = fluid.layers.data(name='y', shape=[1], dtype='float32')
        hidden = fluid.layers.fc(input=x, size=4, act='relu')
        pred = fluid.layers.fc(input=hidden, size=1)
        loss = fluid.layers.mean(fluid.layers.square_error_cost(input=pred, label=y))
        make().minimize(loss)
    exe.run(startup)
    losses = []
    for step in range(10):
        l, = exe.run(main, feed={'x': xs, 'y': ys}, fetch_list=[loss])
        losses.append(float(l))
    print(name, losses[0], losses[-1])
