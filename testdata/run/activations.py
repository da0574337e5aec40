# The activation layers 2018-19 models reached for beyond relu and tanh
# (MobileNet's relu6, elu, pow, hard_sigmoid, swish), on fixed values and
# then trained through: each feeds a small regression, SGD.
import numpy as np
import paddle.fluid as fluid

fluid.default_startup_program().random_seed = 4
x = fluid.layers.data(name='x', shape=[4], dtype='float32')
y = fluid.layers.data(name='y', shape=[1], dtype='float32')
outs = [fluid.layers.relu6(x), fluid.layers.relu6(x, threshold=6.0),
        fluid.layers.elu(x), fluid.layers.elu(x, alpha=0.3),
        fluid.layers.pow(x, factor=2.0), fluid.layers.hard_sigmoid(x),
        fluid.layers.hard_sigmoid(x, slope=0.5, offset=0.25), fluid.layers.swish(x)]
hidden = fluid.layers.fc(input=x, size=6)
feats = [fluid.layers.relu6(hidden), fluid.layers.elu(hidden, alpha=0.7),
         fluid.layers.pow(fluid.layers.sigmoid(hidden), factor=3.0),
         fluid.layers.hard_sigmoid(hidden), fluid.layers.swish(hidden)]
pred = fluid.layers.fc(input=feats, size=1)
loss = fluid.layers.mean(fluid.layers.square_error_cost(input=pred, label=y))
fluid.optimizer.SGD(learning_rate=0.0005).minimize(loss)

exe = fluid.Executor(fluid.CPUPlace())
exe.run(fluid.default_startup_program())
xs = np.array([[-7.5, -1.0, 0.25, 3.0], [0.0, 2.5, 6.5, -0.5]], dtype='float32')
ys = np.array([[1.0], [-1.0]], dtype='float32')
for o in exe.run(feed={'x': xs, 'y': ys}, fetch_list=outs):
    print(np.round(o, 5))
for k in range(6):
    l, = exe.run(feed={'x': xs * 0.5, 'y': ys}, fetch_list=[loss])
    print(k, '%.5g' % np.array(l)[0])
