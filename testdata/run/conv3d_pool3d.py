# A small 3-D CNN of the 2018-19 kind (video clips, medical volumes):
# conv3d with stride, 6-value padding, groups and dilation, max and
# average pool3d (exclusive or not, ceil_mode, global), a conv3d_transpose
# back up, trained a few SGD steps. Filters are fixed, so the forward
# volumes, the loss and the input's gradient print what Paddle computes.
import numpy as np
import paddle.fluid as fluid
import paddle.fluid.layers as layers


def fixed(name, shape, scale=0.1):
    n = int(np.prod(shape))
    values = ((np.arange(n) * 7 % 13) - 6.0).reshape(shape).astype('float32') * scale
    return fluid.ParamAttr(name=name, initializer=fluid.initializer.NumpyArrayInitializer(values))


clip = layers.data(name='clip', shape=[2, 6, 7, 7], dtype='float32')
clip.stop_gradient = False
label = layers.data(name='label', shape=[1], dtype='int64')
c1 = layers.conv3d(clip, num_filters=4, filter_size=3, stride=[1, 2, 2], padding=1,
                   act='relu', param_attr=fixed('c1_w', [4, 2, 3, 3, 3]),
                   bias_attr=fixed('c1_b', [4], 0.01))
c2 = layers.conv3d(c1, num_filters=4, filter_size=[2, 3, 3], padding=[0, 1, 1, 0, 2, 2],
                   dilation=[1, 1, 2], groups=2, param_attr=fixed('c2_w', [4, 2, 2, 3, 3]),
                   bias_attr=False)
p1 = layers.pool3d(c1, pool_size=2, pool_type='max', pool_stride=2)
p2 = layers.pool3d(c2, pool_size=[2, 2, 3], pool_type='avg', pool_stride=[1, 2, 1],
                   pool_padding=1, exclusive=False)
p3 = layers.pool3d(c2, pool_size=3, pool_type='max', pool_stride=2, ceil_mode=True)
p4 = layers.pool3d(c1, pool_type='avg', global_pooling=True)
p5 = layers.pool3d(c2, pool_size=2, pool_type='avg', pool_stride=2, pool_padding=1)
up = layers.conv3d_transpose(p1, num_filters=2, filter_size=[2, 3, 3], stride=2, padding=[0, 1, 1],
                             param_attr=fixed('up_w', [4, 2, 2, 3, 3]), bias_attr=False)
up2 = layers.conv3d_transpose(c2, num_filters=2, output_size=[7, 6, 5], groups=2,
                              param_attr=fixed('up2_w', [4, 1, 2, 4, 2]), act='tanh')
feat = layers.concat([layers.flatten(p) for p in (p1, p2, p3, p4, p5, up, up2)], axis=1)
logits = layers.fc(feat, 3, param_attr=fixed('fc_w', [int(feat.shape[1]), 3], 0.01))
loss = layers.mean(layers.softmax_with_cross_entropy(logits, label))
fluid.optimizer.SGD(learning_rate=0.01).minimize(loss)
for v in (c1, c2, p1, p2, p3, p4, p5, up, up2):
    print(v.shape)

exe = fluid.Executor(fluid.CPUPlace())
exe.run(fluid.default_startup_program())
rng = np.random.RandomState(11)
x = rng.rand(2, 2, 6, 7, 7).astype('float32') - 0.5
y = np.array([[0], [2]], dtype='int64')
for step in range(3):
    out = exe.run(feed={'clip': x, 'label': y},
                  fetch_list=[loss, c2, p2, p3, p4, p5, up, up2, 'clip@GRAD', 'c1_w@GRAD'])
    print(step, np.round(out[0], 5))
    for v in out[1:]:
        print(v.shape, np.round(v.reshape(-1)[::7][:12], 4).tolist())
