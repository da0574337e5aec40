# Shape layers 2018-19 models used around their features: stack, expand,
# flatten (after a conv) and reduce_prod, on fixed values, then a model
# trained through all of them with Momentum.
import numpy as np
import paddle.fluid as fluid

fluid.default_startup_program().random_seed = 3
# Paddle 3.3.1 declares 1.x expand's output with expand_times as its dims
# (its values are right), so the expand results are printed but their
# declared shapes are not, and no layer is built on them.
a = fluid.layers.data(name='a', shape=[2, 3], dtype='float32', append_batch_size=False)
b = fluid.layers.data(name='b', shape=[2, 3], dtype='float32', append_batch_size=False)
img = fluid.layers.data(name='img', shape=[2, 2, 3, 3], dtype='float32', append_batch_size=False)
outs = [fluid.layers.stack([a, b]), fluid.layers.stack([a, b], axis=1),
        fluid.layers.stack([a, b, a], axis=-1),
        fluid.layers.expand(a, expand_times=[1, 2]),
        fluid.layers.expand(fluid.layers.reshape(a, [2, 3, 1]), expand_times=[1, 1, 2]),
        fluid.layers.flatten(img), fluid.layers.flatten(img, axis=2),
        fluid.layers.flatten(img, axis=0),
        fluid.layers.reduce_prod(a), fluid.layers.reduce_prod(img, dim=[1, 2]),
        fluid.layers.reduce_prod(a, dim=1, keep_dim=True)]
for o in outs:
    if 'expand' not in o.name:
        print(o.shape)

conv = fluid.layers.conv2d(input=img, num_filters=2, filter_size=2, act='tanh')
pairs = fluid.layers.stack([fluid.layers.fc(input=a, size=4), fluid.layers.fc(input=b, size=4)], axis=1)
feats = [fluid.layers.flatten(conv), fluid.layers.flatten(pairs),
         fluid.layers.reduce_prod(fluid.layers.sigmoid(pairs), dim=[1], keep_dim=False)]
y = fluid.layers.data(name='y', shape=[2, 1], dtype='float32', append_batch_size=False)
pred = fluid.layers.fc(input=feats, size=1)
loss = fluid.layers.mean(fluid.layers.square_error_cost(input=pred, label=y))
fluid.optimizer.Momentum(learning_rate=0.05, momentum=0.9).minimize(loss)

exe = fluid.Executor(fluid.CPUPlace())
exe.run(fluid.default_startup_program())
rng = np.random.RandomState(9)
feed = {'a': np.array([[1.0, 2.0, -0.5], [0.25, -3.0, 1.5]], dtype='float32'),
        'b': np.array([[0.5, 0.0, 4.0], [2.0, 1.0, -1.0]], dtype='float32'),
        'img': (rng.rand(2, 2, 3, 3) - 0.5).astype('float32'),
        'y': np.array([[0.5], [-0.5]], dtype='float32')}
for o in exe.run(feed=feed, fetch_list=outs):
    print(np.round(o, 4))
for k in range(8):
    l, = exe.run(feed=feed, fetch_list=[loss])
    print(k, '%.5f' % np.array(l)[0])
