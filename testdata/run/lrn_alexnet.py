# An AlexNet-style block as 2018 image classifiers wrote it: conv2d, relu,
# fluid.layers.lrn (n=5, k=2, alpha=1e-4, beta=0.75 as the AlexNet paper
# and PaddlePaddle/models had it; and the layer's own defaults), max
# pooling, then an fc classifier, trained a few SGD steps on seeded
# inputs so lrn's gradient is used.
from __future__ import print_function

import numpy as np
import paddle.fluid as fluid


def fmt(values, digits=5):
    form = '%.' + str(digits) + 'f'
    return ' '.join(form % v for v in np.array(values).flatten())


main = fluid.Program()
startup = fluid.Program()
startup.random_seed = 11
with fluid.program_guard(main, startup):
    image = fluid.layers.data(name='image', shape=[3, 8, 8], dtype='float32')
    label = fluid.layers.data(name='label', shape=[1], dtype='int64')
    conv1 = fluid.layers.conv2d(input=image, num_filters=6, filter_size=3, padding=1,
                                act='relu', param_attr='conv1_w', bias_attr='conv1_b')
    norm1 = fluid.layers.lrn(input=conv1, n=5, k=2.0, alpha=1e-2, beta=0.75)
    pool1 = fluid.layers.pool2d(input=norm1, pool_size=2, pool_stride=2, pool_type='max')
    conv2 = fluid.layers.conv2d(input=pool1, num_filters=4, filter_size=3, padding=1,
                                act='relu', param_attr='conv2_w', bias_attr='conv2_b')
    norm2 = fluid.layers.lrn(conv2)
    norm3 = fluid.layers.lrn(conv2, n=3, k=0.5, alpha=0.2, beta=0.5, name='lrn3')
    merged = fluid.layers.elementwise_add(norm2, norm3)
    predict = fluid.layers.fc(input=merged, size=3, act='softmax',
                              param_attr='fc_w', bias_attr='fc_b')
    cost = fluid.layers.cross_entropy(input=predict, label=label)
    avg_cost = fluid.layers.mean(cost)
    print('shapes', norm1.shape, norm2.shape, norm3.shape, norm1.dtype == conv1.dtype)
    fluid.optimizer.SGD(learning_rate=0.1).minimize(avg_cost)

try:
    with fluid.program_guard(fluid.Program(), fluid.Program()):
        flat = fluid.layers.data(name='flat', shape=[6], dtype='float32')
        fluid.layers.lrn(flat)
except ValueError as e:
    print('ValueError', e)

rng = np.random.RandomState(3)
feed = {
    'image': rng.uniform(-1, 1, (4, 3, 8, 8)).astype('float32'),
    'label': rng.randint(0, 3, (4, 1)).astype('int64'),
}
params = ['conv1_w', 'conv1_b', 'conv2_w', 'conv2_b', 'fc_w', 'fc_b']
exe = fluid.Executor(fluid.CPUPlace())
exe.run(startup)
for step in range(5):
    c, n1, n3 = exe.run(main, feed=feed, fetch_list=[avg_cost, norm1, norm3])
    total = sum(float(np.abs(np.array(fluid.global_scope().find_var(name).get_tensor())).sum())
                for name in params)
    print('step %d cost %.5f norm1 %.5f norm3 %.5f |params| %.4f'
          % (step, float(np.array(c).flatten()[0]), n1.mean(), n3.mean(), total))
    if step in (0, 4):
        print(' norm1', n1.shape, fmt(n1[0, :, 0, :4], 4))
        print(' norm3', n3.shape, fmt(n3[1, :, 1, :], 4))
