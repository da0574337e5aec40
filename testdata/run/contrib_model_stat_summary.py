# A 2019 image classifier prints the size of its model before training,
# as the PaddleCV tutorials showed with contrib.model_stat.
from __future__ import print_function

import paddle.fluid as fluid
from paddle.fluid.contrib.model_stat import summary

img = fluid.layers.data(name='img', shape=[3, 32, 32], dtype='float32')
conv = fluid.layers.conv2d(img, num_filters=8, filter_size=3, padding=1)
bn = fluid.layers.batch_norm(conv, act='relu')
pool = fluid.layers.pool2d(bn, pool_size=2, pool_stride=2)
dw = fluid.layers.conv2d(pool, num_filters=8, filter_size=3, groups=8, bias_attr=False)
act = fluid.layers.leaky_relu(dw)
hidden = fluid.layers.fc(act, size=32, act='tanh')
prob = fluid.layers.fc(hidden, size=10, act='softmax')
label = fluid.layers.data(name='label', shape=[1], dtype='int64')
loss = fluid.layers.mean(fluid.layers.cross_entropy(prob, label))
summary(fluid.default_main_program())
print(fluid.contrib.summary is summary, 'summary' in fluid.contrib.__all__)
