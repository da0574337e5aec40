# Learning-rate schedules of fluid.layers (a global step counter and
# ops that run first in every step), each driving Momentum in its own
# program pair; the fetched learning rate is printed with the loss.
import numpy as np
import paddle.fluid as fluid

schedules = [
    ('exponential', lambda: fluid.layers.exponential_decay(
        learning_rate=0.1, decay_steps=3, decay_rate=0.5)),
    ('staircase', lambda: fluid.layers.exponential_decay(
        learning_rate=0.1, decay_steps=2, decay_rate=0.5, staircase=True)),
    ('cosine', lambda: fluid.layers.cosine_decay(
        learning_rate=0.1, step_each_epoch=2, epochs=4)),
    ('polynomial cycle', lambda: fluid.layers.polynomial_decay(
        learning_rate=0.1, decay_steps=2, end_learning_rate=0.01, power=2.0, cycle=True)),
    ('natural_exp', lambda: fluid.layers.natural_exp_decay(
        learning_rate=0.1, decay_steps=3, decay_rate=0.5)),
    ('inverse_time', lambda: fluid.layers.inverse_time_decay(
        learning_rate=0.1, decay_steps=3, decay_rate=0.5)),
    ('polynomial', lambda: fluid.layers.polynomial_decay(
        learning_rate=0.1, decay_steps=5, end_learning_rate=0.01, power=2.0)),
    ('noam', lambda: fluid.layers.noam_decay(d_model=16, warmup_steps=4)),
    ('piecewise', lambda: fluid.layers.piecewise_decay(
        boundaries=[2, 4], values=[0.1, 0.05, 0.01])),
    ('warmup', lambda: fluid.layers.linear_lr_warmup(
        learning_rate=fluid.layers.exponential_decay(
            learning_rate=0.1, decay_steps=3, decay_rate=0.5),
        warmup_steps=3, start_lr=0.01, end_lr=0.1)),
]

rng = np.random.RandomState(3)
xs = rng.uniform(-1, 1, size=(16, 4)).astype('float32')
ys = (xs.sum(axis=1, keepdims=True) * 3.0).astype('float32')
exe = fluid.Executor(fluid.CPUPlace())
for name, schedule in schedules:
    main, startup = fluid.Program(), fluid.Program()
    startup.random_seed = 3
    with fluid.program_guard(main, startup), fluid.unique_name.guard():
        x = fluid.layers.data(name='x', shape=[4], dtype='float32')
        y = fluid.layers.data(name='y', shape=[1], dtype='float32')
        pred = fluid.layers.fc(input=x, size=1)
        avg_cost = fluid.layers.mean(fluid.layers.square_error_cost(input=pred, label=y))
        lr = schedule()
        fluid.optimizer.Momentum(learning_rate=lr, momentum=0.9).minimize(avg_cost)
    exe.run(startup)
    for step in range(6):
        loss, cur_lr = exe.run(main, feed={'x': xs, 'y': ys}, fetch_list=[avg_cost, lr])
        print(name, step, loss, cur_lr)
