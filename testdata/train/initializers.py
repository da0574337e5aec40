# Every initializer on one network, seeded by the initializer or by the
# startup program's random_seed (the initial weights are bit-identical to
# Paddle's CPU kernels), trained a few steps with SGD; then each layer's
# weights are summed.
import numpy as np
import paddle.fluid as fluid

fluid.default_startup_program().random_seed = 11
init = fluid.initializer
layers = [
    ('constant', init.Constant(value=0.3)),
    ('uniform', init.Uniform(low=-0.5, high=0.5, seed=3)),
    ('normal', init.NormalInitializer(loc=0.1, scale=0.2, seed=4)),
    ('truncated_normal', init.TruncatedNormal(loc=0.0, scale=0.5, seed=5)),
    ('xavier_normal', init.Xavier(uniform=False)),
    ('msra_uniform', init.MSRA(uniform=True)),
    ('msra_normal', init.MSRAInitializer(uniform=False, seed=6)),
    ('numpy', init.NumpyArrayInitializer((np.arange(24).reshape(6, 4) / 12.0 - 1.0).astype('float32'))),
]

x = fluid.layers.data(name='x', shape=[6], dtype='float32')
y = fluid.layers.data(name='y', shape=[1], dtype='float32')
outs = []
for name, initializer in layers:
    h = fluid.layers.fc(input=x, size=4, act='tanh',
                        param_attr=fluid.ParamAttr(name=name + '_w', initializer=initializer),
                        bias_attr=False)
    outs.append(h)
pred = fluid.layers.fc(input=fluid.layers.concat(outs, axis=1), size=1)
avg_cost = fluid.layers.mean(fluid.layers.square_error_cost(input=pred, label=y))
fluid.optimizer.SGD(learning_rate=0.05).minimize(avg_cost)

exe = fluid.Executor(fluid.CPUPlace())
exe.run(fluid.default_startup_program())
rng = np.random.RandomState(7)
xs = rng.uniform(-1, 1, size=(10, 6)).astype('float32')
ys = xs[:, :1] * 2.0 - xs[:, 1:2]
for step in range(5):
    loss, = exe.run(feed={'x': xs, 'y': ys}, fetch_list=[avg_cost])
    print(step, loss)
scope = fluid.global_scope()
for name, _ in layers:
    w = np.array(scope.find_var(name + '_w').get_tensor())
    print(name, w.shape, w.sum(), w.min(), w.max())
