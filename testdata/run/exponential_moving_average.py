# fluid.optimizer.ExponentialMovingAverage (1.5/1.6) as 2019's training
# scripts used it: a small regression trained with SGD, the averages kept
# by ema.update() (decay scheduled by the global step), evaluated on a
# test program inside `with ema.apply(exe):`, the trained weights back
# after it; then apply(need_restore=False) and an explicit restore().
import numpy as np
import paddle.fluid as fluid
import paddle.fluid.layers as layers

main, startup = fluid.Program(), fluid.Program()
main.random_seed = startup.random_seed = 7
with fluid.program_guard(main, startup):
    x = layers.data(name='x', shape=[3], dtype='float32')
    y = layers.data(name='y', shape=[1], dtype='float32')
    h = layers.fc(input=x, size=4, act='tanh', param_attr=fluid.ParamAttr(name='w1'),
                  bias_attr=fluid.ParamAttr(name='b1'))
    pred = layers.fc(input=h, size=1, param_attr=fluid.ParamAttr(name='w2'),
                     bias_attr=False)
    loss = layers.mean(layers.square_error_cost(input=pred, label=y))
    test_program = main.clone(for_test=True)
    fluid.optimizer.SGD(learning_rate=0.2).minimize(loss)
    global_steps = layers.learning_rate_scheduler._decay_step_counter()
    ema = fluid.optimizer.ExponentialMovingAverage(0.9, thres_steps=global_steps)
    ema.update()

print(sorted(v.name for v in main.list_vars() if 'ema' in v.name))
print([op.type for op in main.global_block().ops if op.attr('op_role') == 2][-5:])
print(len(ema.apply_program.global_block().ops) > 0,
      [op.type for op in ema.restore_program.global_block().ops])

rng = np.random.RandomState(3)
xs = rng.uniform(-1, 1, (8, 3)).astype('float32')
ys = (xs[:, :1] * 0.7 - xs[:, 1:2] * 0.2 + 0.3).astype('float32')
exe = fluid.Executor(fluid.CPUPlace())
scope = fluid.global_scope()
exe.run(startup)


def weight(name):
    return np.round(np.array(scope.find_var(name).get_tensor()).ravel()[:4], 5)


for step in range(6):
    l, = exe.run(main, feed={'x': xs, 'y': ys}, fetch_list=[loss])
    print(step, np.round(l, 6))
print('trained w2', weight('w2'))
print('decay', np.round(np.array(scope.find_var('scheduled_ema_decay_rate').get_tensor()), 6))
with ema.apply(exe):
    print('averaged w2', weight('w2'))
    print('averaged b1', weight('b1'))
    l, = exe.run(test_program, feed={'x': xs, 'y': ys}, fetch_list=[loss])
    print('test loss with averages', np.round(l, 6))
print('restored w2', weight('w2'))
l, = exe.run(test_program, feed={'x': xs, 'y': ys}, fetch_list=[loss])
print('test loss', np.round(l, 6))

for step in range(3):
    exe.run(main, feed={'x': xs, 'y': ys}, fetch_list=[loss])
with ema.apply(exe, need_restore=False):
    print('averaged w1', weight('w1'))
print('still averaged w1', weight('w1'))
ema.restore(exe)
print('restored w1', weight('w1'))
