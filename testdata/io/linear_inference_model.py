# Issue 16's Done-when: seed 003's linear regression (testdata/train/
# linear_sgd_const.py) trained, saved with fluid.io.save_inference_model
# into `linear_model/` (combined params file `params`), reloaded with
# fluid.io.load_inference_model and run. Relative paths: run it in a
# scratch directory.
import numpy
import paddle.fluid as fluid

train_data = numpy.array([[1.0], [2.0], [3.0], [4.0]]).astype('float32')
y_true = numpy.array([[2.0], [4.0], [6.0], [8.0]]).astype('float32')

x = fluid.layers.data(name='x', shape=[1], dtype='float32')
y = fluid.layers.data(name='y', shape=[1], dtype='float32')
y_predict = fluid.layers.fc(
    input=x, size=1, act=None,
    param_attr=fluid.ParamAttr(initializer=fluid.initializer.Constant(0.5)),
    bias_attr=fluid.ParamAttr(initializer=fluid.initializer.Constant(0.1)))
cost = fluid.layers.square_error_cost(input=y_predict, label=y)
avg_cost = fluid.layers.mean(cost)
fluid.optimizer.SGD(learning_rate=0.01).minimize(avg_cost)

exe = fluid.Executor(fluid.CPUPlace())
exe.run(fluid.default_startup_program())
for i in range(100):
    loss, = exe.run(feed={'x': train_data, 'y': y_true}, fetch_list=[avg_cost])
print('loss', loss)

fluid.io.save_inference_model('linear_model', ['x'], [y_predict], exe,
                              params_filename='params')
fluid.io.save_params(exe, 'linear_params', main_program=fluid.default_main_program())

[program, feed_names, fetch_targets] = fluid.io.load_inference_model(
    'linear_model', exe, params_filename='params')
print(feed_names)
x_new = numpy.array([[5.0], [6.5]]).astype('float32')
pred, = exe.run(program, feed={feed_names[0]: x_new}, fetch_list=fetch_targets)
print('predict', pred.flatten())
