# 1.2's layers.unstack: a batch of [time, feature] steps cut into one
# Variable per time step (as 2019 code fed steps to an RNN cell by hand),
# each step projected, and a loss over some of the steps only, so the
# gradient reaches the input through the steps that have one.
import numpy as np
import paddle.fluid as fluid

fluid.default_startup_program().random_seed = 11
x = fluid.layers.data(name='x', shape=[4, 3], dtype='float32')
x.stop_gradient = False
steps = fluid.layers.unstack(x, axis=1)
print(len(steps), [s.shape for s in steps])
last = fluid.layers.unstack(x, axis=-1, num=3)
print(len(last), last[0].shape)
proj = [fluid.layers.fc(input=s, size=2, act='tanh') for s in steps[:3]]
total = fluid.layers.sums(proj)
loss = fluid.layers.mean(fluid.layers.square(total))
fluid.optimizer.SGD(learning_rate=0.1).minimize(loss)
x_grad = fluid.default_main_program().global_block().var('x@GRAD')

exe = fluid.Executor(fluid.CPUPlace())
exe.run(fluid.default_startup_program())
xs = np.linspace(-1, 1, 2 * 4 * 3).reshape(2, 4, 3).astype('float32')
for i in range(3):
    l, s1, c2, g = exe.run(feed={'x': xs}, fetch_list=[loss, steps[1], last[2], x_grad])
    print(i, np.round(l, 5).tolist(), s1.shape, c2.shape)
print(np.round(s1, 4).tolist())
print(np.round(c2, 4).tolist())
print(np.round(g, 5).tolist())
