# Adam and Momentum on float64 parameters: 1.x filled each accumulator with
# the parameter's dtype, so the moments match the parameter.
import numpy as np
import paddle.fluid as fluid
fluid.default_startup_program().random_seed = 3
x = fluid.layers.data(name='x', shape=[4], dtype='float64')
y = fluid.layers.data(name='y', shape=[1], dtype='float64')
pred = fluid.layers.fc(input=x, size=1)
loss = fluid.layers.mean(fluid.layers.square_error_cost(input=pred, label=y))
fluid.optimizer.Adam(learning_rate=0.1).minimize(loss)
exe = fluid.Executor(fluid.CPUPlace())
exe.run(fluid.default_startup_program())
rng = np.random.RandomState(0)
xs = rng.rand(8, 4); ys = xs.sum(1, keepdims=True)
for i in range(3):
    l, = exe.run(feed={'x': xs, 'y': ys}, fetch_list=[loss])
    print(i, l.dtype, round(float(l[0]), 6))
prog, startup = fluid.Program(), fluid.Program()
with fluid.program_guard(prog, startup):
    startup.random_seed = 5
    a = fluid.layers.data(name='a', shape=[4], dtype='float64')
    b = fluid.layers.data(name='b', shape=[1], dtype='float64')
    cost = fluid.layers.mean(fluid.layers.square_error_cost(
        input=fluid.layers.fc(input=a, size=1), label=b))
    fluid.optimizer.Momentum(learning_rate=0.05, momentum=0.9).minimize(cost)
exe.run(startup)
for i in range(3):
    l, = exe.run(prog, feed={'a': xs, 'b': ys}, fetch_list=[cost])
    print(i, l.dtype, round(float(l[0]), 6))
