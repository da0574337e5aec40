# 1.6's adaptive_pool3d: clips of any length and size pooled to a fixed
# grid (max with the positions of the maxima, and average), as 3-D video
# and volume classifiers used it before their fc head, trained a few SGD
# steps through both pools.
import numpy as np
import paddle.fluid as fluid

fluid.default_startup_program().random_seed = 5
clip = fluid.layers.data(name='clip', shape=[2, 5, 6, 4], dtype='float32')
clip.stop_gradient = False
label = fluid.layers.data(name='label', shape=[1], dtype='int64')
conv = fluid.layers.conv3d(clip, num_filters=3, filter_size=2,
                           param_attr=fluid.ParamAttr(initializer=fluid.initializer.Uniform(-0.5, 0.5, seed=8)))
pmax, where = fluid.layers.adaptive_pool3d(conv, pool_size=[2, 3, 2], pool_type='max', require_index=True)
pavg = fluid.layers.adaptive_pool3d(conv, pool_size=2, pool_type='avg')
feat = fluid.layers.concat([fluid.layers.flatten(pmax), fluid.layers.flatten(pavg)], axis=1)
logits = fluid.layers.fc(feat, 3, param_attr=fluid.ParamAttr(initializer=fluid.initializer.Uniform(-0.5, 0.5, seed=9)))
loss = fluid.layers.mean(fluid.layers.softmax_with_cross_entropy(logits, label))
fluid.optimizer.SGD(learning_rate=0.5).minimize(loss)
print(pmax.shape, pavg.shape)
exe = fluid.Executor(fluid.CPUPlace())
exe.run(fluid.default_startup_program())
rng = np.random.RandomState(3)
x = rng.rand(2, 2, 5, 6, 4).astype('float32')
y = np.array([[0], [2]], dtype='int64')
for step in range(3):
    l, m, a, w, g = exe.run(feed={'clip': x, 'label': y},
                            fetch_list=[loss, pmax, pavg, where, 'clip@GRAD'])
    print(step, np.round(l, 5), np.round(m[0, 0], 4).tolist(), np.round(a[1, 2], 4).tolist(),
          w[0, 1].tolist(), np.round(g[0, 0, :2, :2], 4).tolist())

# pool3d's own `adaptive` attribute (no 1.x layer sets it for max): average
# pooling adapts its windows; Paddle's CPU max pooling keeps ksize windows.
block = fluid.default_main_program().global_block()
for kind in ['max', 'avg']:
    block.append_op(type='pool3d', inputs={'X': clip},
                    outputs={'Out': block.create_var(name='raw_' + kind, dtype='float32')},
                    attrs={'pooling_type': kind, 'ksize': [2, 3, 2], 'adaptive': True})
for v in exe.run(feed={'clip': x, 'label': y}, fetch_list=['raw_max', 'raw_avg']):
    print(v.shape, np.round(v[1, 1].ravel(), 4).tolist())
