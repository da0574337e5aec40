# Weight decay three ways: the optimizer's regularization=, and each
# layer's own through ParamAttr(regularizer=...). Momentum fuses L2 decay
# into its op (the optimizer's, and the output bias's own), while the
# hidden layer's L1 decay is built as sign + scale + sum.
import numpy as np
import paddle.fluid as fluid

fluid.default_startup_program().random_seed = 3
x = fluid.layers.data(name='x', shape=[4], dtype='float32')
y = fluid.layers.data(name='y', shape=[1], dtype='float32')
hidden = fluid.layers.fc(input=x, size=8, act='tanh',
                         param_attr=fluid.ParamAttr(regularizer=fluid.regularizer.L1Decay(0.01)))
pred = fluid.layers.fc(input=hidden, size=1,
                       bias_attr=fluid.ParamAttr(regularizer=fluid.regularizer.L2Decay(0.02)))
avg_cost = fluid.layers.mean(fluid.layers.square_error_cost(input=pred, label=y))
optimizer = fluid.optimizer.MomentumOptimizer(learning_rate=0.1, momentum=0.9,
                                     regularization=fluid.regularizer.L2Decay(1e-3))
optimizer.minimize(avg_cost)

exe = fluid.Executor(fluid.CPUPlace())
exe.run(fluid.default_startup_program())
rng = np.random.RandomState(3)
xs = rng.uniform(-1, 1, size=(16, 4)).astype('float32')
ys = xs.sum(axis=1, keepdims=True).astype('float32')
for step in range(10):
    loss, = exe.run(feed={'x': xs, 'y': ys}, fetch_list=[avg_cost])
    print(step, loss)
w = np.array(fluid.global_scope().find_var('fc_0.w_0').get_tensor())
print('hidden weights', w.shape, np.abs(w).sum())
