# Per-parameter learning rates (ParamAttr(learning_rate=...)): the
# optimizer scales its global rate for those parameters with a scale op
# of its own, here under Adam.
import numpy as np
import paddle.fluid as fluid
fluid.default_startup_program().random_seed = 3
x = fluid.layers.data(name='x', shape=[4], dtype='float32')
y = fluid.layers.data(name='y', shape=[1], dtype='float32')
h = fluid.layers.fc(input=x, size=8, act='relu', param_attr=fluid.ParamAttr(learning_rate=0.5))
pred = fluid.layers.fc(input=h, size=1, bias_attr=fluid.ParamAttr(learning_rate=2.0))
avg_cost = fluid.layers.mean(fluid.layers.square_error_cost(input=pred, label=y))
fluid.optimizer.Adam(learning_rate=0.05).minimize(avg_cost)
exe = fluid.Executor(fluid.CPUPlace())
exe.run(fluid.default_startup_program())
rng = np.random.RandomState(3)
xs = rng.uniform(-1, 1, size=(16, 4)).astype('float32')
ys = (xs.sum(axis=1, keepdims=True) * 3.0).astype('float32')
for step in range(8):
    loss, = exe.run(feed={'x': xs, 'y': ys}, fetch_list=[avg_cost])
    print(step, loss)
