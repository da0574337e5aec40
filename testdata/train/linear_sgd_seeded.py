# Seed 003's linear regression with fc's default initializers (Xavier
# uniform weight, zero bias) made reproducible by the startup program's
# random seed, trained with SGD at 0.01: the losses step by step.
import numpy
import paddle.fluid as fluid

fluid.default_startup_program().random_seed = 1

train_data = numpy.array([[1.0], [2.0], [3.0], [4.0]]).astype('float32')
y_true = numpy.array([[2.0], [4.0], [6.0], [8.0]]).astype('float32')

x = fluid.layers.data(name='x', shape=[1], dtype='float32')
y = fluid.layers.data(name='y', shape=[1], dtype='float32')
y_predict = fluid.layers.fc(input=x, size=1, act=None)
cost = fluid.layers.square_error_cost(input=y_predict, label=y)
avg_cost = fluid.layers.mean(cost)

sgd_optimizer = fluid.optimizer.SGD(learning_rate=0.01)
sgd_optimizer.minimize(avg_cost)

place = fluid.CPUPlace()
exe = fluid.Executor(place)
exe.run(fluid.default_startup_program())
for step in range(100):
    pred, loss = exe.run(fluid.default_main_program(),
                         feed={'x': train_data, 'y': y_true},
                         fetch_list=[y_predict, avg_cost])
    print(step, loss)
print('predictions', pred.flatten())
