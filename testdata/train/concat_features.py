# Features joined with concat, as 2018 models joined raw inputs with
# learned ones: concat([x, fc(z)]) -> fc -> square error, trained by
# Momentum. `x` is data and needs no gradient, so concat's grad op keeps an
# @EMPTY@ in its place and the learned half gets its own gradient.
import numpy as np
import paddle.fluid as fluid

fluid.default_startup_program().random_seed = 6
rng = np.random.RandomState(4)
xs = rng.rand(8, 3).astype('float32')
zs = rng.rand(8, 5).astype('float32')
ys = (xs.sum(axis=1, keepdims=True) - zs[:, :1]).astype('float32')

x = fluid.layers.data(name='x', shape=[3], dtype='float32')
z = fluid.layers.data(name='z', shape=[5], dtype='float32')
y = fluid.layers.data(name='y', shape=[1], dtype='float32')
learned = fluid.layers.fc(input=z, size=4, act='tanh')
joined = fluid.layers.concat([x, learned], axis=1)
pred = fluid.layers.fc(input=joined, size=1)
loss = fluid.layers.mean(fluid.layers.square_error_cost(input=pred, label=y))
fluid.optimizer.Momentum(learning_rate=0.1, momentum=0.9).minimize(loss)

exe = fluid.Executor(fluid.CPUPlace())
exe.run(fluid.default_startup_program())
for k in range(15):
    l, = exe.run(feed={'x': xs, 'z': zs, 'y': ys}, fetch_list=[loss])
    print(k, l)
