# 1.x's layers.maxout: a small maxout network (conv, maxout over groups
# of channels, fc) trained a few steps on fixed images; each maxout output
# sends its gradient to the channel that held the max.
import numpy as np
import paddle.fluid as fluid

fluid.default_startup_program().random_seed = 21
img = fluid.layers.data(name='img', shape=[1, 6, 6], dtype='float32')
label = fluid.layers.data(name='label', shape=[1], dtype='int64')
conv = fluid.layers.conv2d(input=img, num_filters=6, filter_size=3)
conv.stop_gradient = False
pooled = fluid.layers.maxout(conv, groups=3)
wide = fluid.layers.maxout(conv, groups=2, name='maxout_wide')
print(pooled.shape, wide.shape, wide.name)
pred = fluid.layers.fc(input=[pooled, wide], size=3, act='softmax')
loss = fluid.layers.mean(fluid.layers.cross_entropy(input=pred, label=label))
fluid.optimizer.Momentum(learning_rate=0.1, momentum=0.9).minimize(loss)
conv_grad = fluid.default_main_program().global_block().var(conv.name + '@GRAD')

exe = fluid.Executor(fluid.CPUPlace())
exe.run(fluid.default_startup_program())
rng = np.random.RandomState(0)
feed = {'img': rng.uniform(-1, 1, (4, 1, 6, 6)).astype('float32'),
        'label': np.array([[0], [2], [1], [2]]).astype('int64')}
for step in range(4):
    l, p, w, g = exe.run(feed=feed, fetch_list=[loss, pooled, wide, conv_grad])
    print(step, np.round(l, 5).tolist(), p.shape, w.shape)
print(np.round(p[0], 4).tolist())
print(np.round(w[3, 2], 4).tolist())
print(np.round(g[1], 5).tolist())
