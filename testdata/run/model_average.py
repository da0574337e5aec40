# fluid.optimizer.ModelAverage as 2018's OCR (crnn_ctc) and text models used it:
# built after the optimizer's minimize, evaluated inside 'with
# model_average.apply(exe)', the trained values restored after. The small
# window (2 to 3 updates, half of all) makes the averages restart.
import numpy as np
import paddle.fluid as fluid

fluid.default_startup_program().random_seed = 21
fluid.default_main_program().random_seed = 21
x = fluid.layers.data(name='x', shape=[3], dtype='float32')
y = fluid.layers.data(name='y', shape=[1], dtype='float32')
pred = fluid.layers.fc(input=x, size=1, param_attr=fluid.ParamAttr(name='w'), bias_attr=fluid.ParamAttr(name='b'))
loss = fluid.layers.mean(fluid.layers.square_error_cost(input=pred, label=y))
test_program = fluid.default_main_program().clone(for_test=True)
fluid.optimizer.Momentum(learning_rate=0.1, momentum=0.9).minimize(loss)
model_average = fluid.optimizer.ModelAverage(0.5, min_average_window=2, max_average_window=3)
exe = fluid.Executor(fluid.CPUPlace())
exe.run(fluid.default_startup_program())
rng = np.random.RandomState(4)
xs = rng.rand(6, 3).astype('float32')
ys = (xs.sum(1, keepdims=True) * 0.5).astype('float32')
scope = fluid.global_scope()
for step in range(7):
    l, = exe.run(feed={'x': xs, 'y': ys}, fetch_list=[loss])
    w = np.array(scope.find_var('w').get_tensor()).ravel()
    print(step, np.round(l, 5), np.round(w, 5).tolist())
    with model_average.apply(exe):
        avg_w = np.array(scope.find_var('w').get_tensor()).ravel()
        tl, = exe.run(test_program, feed={'x': xs, 'y': ys}, fetch_list=[loss])
        print('  averaged', np.round(avg_w, 5).tolist(), np.round(tl, 5))
    print('  restored', np.round(np.array(scope.find_var('w').get_tensor()).ravel(), 5).tolist())
