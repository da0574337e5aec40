# Seed 003's linear regression, trained: fc(size=1) with its weight set to
# 0.5 and its bias to 0.1, square_error_cost, mean, and plain SGD at 0.01.
# Paddle 3.3.1 gives losses 16.135 (step 0), 11.210728 (1), 0.64708817 (9),
# 0.027590197 (99) and predictions 2.2682047, 4.1299634, 5.9917216,
# 7.8534803 (issue 15).
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

sgd_optimizer = fluid.optimizer.SGD(learning_rate=0.01)
sgd_optimizer.minimize(avg_cost)

cpu = fluid.CPUPlace()
exe = fluid.Executor(cpu)
exe.run(fluid.default_startup_program())
for i in range(100):
    outs = exe.run(
        feed={'x': train_data, 'y': y_true},
        fetch_list=[y_predict.name, avg_cost.name])
    if i in (0, 1, 9, 99):
        print(i, outs[1])
print(outs[0].flatten())
