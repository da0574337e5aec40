# fluid.ParallelExecutor as 2018 training scripts drove it: a train
# executor with loss_name, a test executor sharing its variables
# (share_vars_from) on the test clone, run(fetch_list, feed=...) with
# names, the deprecated feed_dict=, a feed list of one dict per device,
# and return_numpy=False. On one CPU place (CPU_NUM=1) each fetch is that
# place's value, as Paddle 1.x returned it (testdata/fluidc_only/
# parallel_executor_places.py checks several places).
import os

import numpy as np
import paddle.fluid as fluid

os.environ['CPU_NUM'] = '1'
x = fluid.layers.data(name='x', shape=[2], dtype='float32')
y = fluid.layers.data(name='y', shape=[1], dtype='float32')
pred = fluid.layers.fc(input=x, size=1, param_attr=fluid.initializer.Constant(0.5),
                       bias_attr=fluid.initializer.Constant(0.1))
avg_cost = fluid.layers.mean(fluid.layers.square_error_cost(input=pred, label=y))
test_program = fluid.default_main_program().clone(for_test=True)
fluid.optimizer.SGD(learning_rate=0.05).minimize(avg_cost)

exe = fluid.Executor(fluid.CPUPlace())
exe.run(fluid.default_startup_program())
train_exe = fluid.ParallelExecutor(use_cuda=False, loss_name=avg_cost.name)
test_exe = fluid.ParallelExecutor(use_cuda=False, main_program=test_program,
                                  share_vars_from=train_exe)
print(train_exe.device_count, test_exe.device_count)

xs = np.array([[1.0, 2.0], [3.0, -1.0], [0.5, 0.5], [-2.0, 1.0]], dtype='float32')
ys = np.array([[1.0], [0.0], [2.0], [-1.0]], dtype='float32')
for step in range(4):
    loss, = train_exe.run([avg_cost.name], feed={'x': xs, 'y': ys})
    test_loss, = test_exe.run(fetch_list=[avg_cost.name], feed={'x': xs, 'y': ys})
    print(step, loss.shape, round(float(loss[0]), 5), round(float(test_loss[0]), 5))
loss, = train_exe.run([avg_cost.name], feed_dict={'x': xs, 'y': ys})
print('feed_dict', round(float(loss[0]), 5))
loss, p = train_exe.run([avg_cost, pred.name], feed=[{'x': xs, 'y': ys}])
print('feed list', round(float(loss[0]), 5), p.shape)
t, = test_exe.run([pred.name], feed={'x': xs[:2], 'y': ys[:2]}, return_numpy=False)
print(isinstance(t, fluid.LoDTensor), np.array(t).shape)
w = np.array(fluid.global_scope().find_var('fc_0.w_0').get_tensor())
print([round(float(v), 5) for v in w.flatten()])

try:
    train_exe.run([avg_cost.name], feed=[{'x': xs, 'y': ys}, {'x': xs, 'y': ys}])
except ValueError as e:
    print('ValueError', e)
try:
    train_exe.run([avg_cost.name], feed=[(xs, ys)])
except TypeError as e:
    print('TypeError', e)
try:
    fluid.ParallelExecutor(use_cuda=False, share_vars_from=exe)
except TypeError as e:
    print('TypeError', e)
try:
    fluid.ParallelExecutor(use_cuda=True, loss_name=avg_cost.name)
except AttributeError:
    print('AttributeError: no CUDA')
