# The .pdmodel route of issue 16: seed 003's linear regression trained,
# saved with Paddle 3's paddle.static.save_inference_model as
# `linear/model.pdmodel` + `linear/model.pdiparams`, reloaded with
# paddle.static.load_inference_model and run. Run it in a scratch directory.
import numpy
import paddle
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

paddle.static.save_inference_model('linear/model', [x], [y_predict], exe)
[program, feed_names, fetch_targets] = paddle.static.load_inference_model('linear/model', exe)
x_new = numpy.array([[5.0], [6.5]]).astype('float32')
pred, = exe.run(program, feed={feed_names[0]: x_new}, fetch_list=fetch_targets)
print(feed_names, [v.name for v in fetch_targets])
print('predict', pred.flatten())
