# Seed 003's "Define Program" ... "Run Executor" example without its
# optimizer lines, in a loop of runs: numpy feeds, and the fetched list
# printed. (fc's random initial weights would differ from Paddle's, so the
# network is written with a global weight that the startup program sets.)
import paddle.fluid as fluid
import numpy

train_data = numpy.array([[1.0], [2.0], [3.0], [4.0]]).astype('float32')
y_true = numpy.array([[2.0], [4.0], [6.0], [8.0]]).astype('float32')
x = fluid.data(name="x", shape=[None, 1], dtype='float32')
y = fluid.data(name="y", shape=[None, 1], dtype='float32')
w = fluid.layers.create_global_var(shape=[1, 1], value=0.5, dtype='float32',
                                   persistable=True, name='w')
y_predict = fluid.layers.elementwise_mul(x, w)
cost = fluid.layers.square_error_cost(input=y_predict, label=y)
avg_cost = fluid.layers.mean(cost)

cpu = fluid.CPUPlace()
exe = fluid.Executor(cpu)
exe.run(fluid.default_startup_program())
for i in range(3):
    outs = exe.run(
        feed={'x': train_data, 'y': y_true},
        fetch_list=[y_predict.name, avg_cost.name])
print(outs)
print(outs[0].shape, outs[1].dtype, outs[0][2], outs[0][1:3].T)
