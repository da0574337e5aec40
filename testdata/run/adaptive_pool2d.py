# 1.6's adaptive_pool2d: feature maps of any size pooled to a fixed grid
# (max with the positions of the maxima, and average), as spatial-pyramid
# and classification heads used it, trained a few SGD steps through both.
import numpy as np
import paddle.fluid as fluid

fluid.default_startup_program().random_seed = 5
img = fluid.layers.data(name='img', shape=[2, 7, 5], dtype='float32')
img.stop_gradient = False
label = fluid.layers.data(name='label', shape=[1], dtype='int64')
conv = fluid.layers.conv2d(img, num_filters=3, filter_size=2,
                           param_attr=fluid.ParamAttr(initializer=fluid.initializer.Uniform(-0.5, 0.5, seed=8)))
pmax, where = fluid.layers.adaptive_pool2d(conv, pool_size=[3, 2], pool_type='max', require_index=True)
pavg = fluid.layers.adaptive_pool2d(conv, pool_size=2, pool_type='avg')
feat = fluid.layers.concat([fluid.layers.flatten(pmax), fluid.layers.flatten(pavg)], axis=1)
logits = fluid.layers.fc(feat, 3, param_attr=fluid.ParamAttr(initializer=fluid.initializer.Uniform(-0.5, 0.5, seed=9)))
loss = fluid.layers.mean(fluid.layers.softmax_with_cross_entropy(logits, label))
fluid.optimizer.SGD(learning_rate=0.5).minimize(loss)
print(pmax.shape, pavg.shape)
exe = fluid.Executor(fluid.CPUPlace())
exe.run(fluid.default_startup_program())
rng = np.random.RandomState(3)
x = rng.rand(2, 2, 7, 5).astype('float32')
y = np.array([[0], [2]], dtype='int64')
for step in range(3):
    l, m, a, w, g = exe.run(feed={'img': x, 'label': y}, fetch_list=[loss, pmax, pavg, where, 'img@GRAD'])
    print(step, np.round(l, 5), np.round(m[0, 0], 4).tolist(), np.round(a[1, 2], 4).tolist(),
          w[0, 1].tolist(), np.round(g[0, 0, :2], 4).tolist())
