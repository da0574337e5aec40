# A small convolutional classifier in the style of the 2018 book's
# recognize_digits conv net: conv2d + pool2d + batch_norm + fc with a
# softmax, trained with Momentum on a fixed batch of 8x8 images, then
# evaluated with the test clone (batch_norm with is_test, moving statistics).
from __future__ import print_function
import numpy as np
import paddle.fluid as fluid

fluid.default_startup_program().random_seed = 7
fluid.default_main_program().random_seed = 7

rng = np.random.RandomState(1)
images = rng.normal(size=(16, 1, 8, 8)).astype('float32')
labels = rng.randint(0, 4, size=(16, 1)).astype('int64')

img = fluid.layers.data(name='img', shape=[1, 8, 8], dtype='float32')
label = fluid.layers.data(name='label', shape=[1], dtype='int64')
conv = fluid.layers.conv2d(input=img, num_filters=4, filter_size=3, padding=1, act='relu')
pool = fluid.layers.pool2d(input=conv, pool_size=2, pool_stride=2, pool_type='max')
bn = fluid.layers.batch_norm(input=pool)
prediction = fluid.layers.fc(input=bn, size=4, act='softmax')
cost = fluid.layers.cross_entropy(input=prediction, label=label)
avg_cost = fluid.layers.mean(cost)
acc = fluid.layers.accuracy(input=prediction, label=label)
test_program = fluid.default_main_program().clone(for_test=True)

opt = fluid.optimizer.Momentum(learning_rate=0.05, momentum=0.9)
opt.minimize(avg_cost)

exe = fluid.Executor(fluid.CPUPlace())
exe.run(fluid.default_startup_program())
for step in range(10):
    loss, accuracy = exe.run(feed={'img': images, 'label': labels},
                             fetch_list=[avg_cost, acc])
    print(step, loss, accuracy)
test_loss, test_acc = exe.run(test_program, feed={'img': images, 'label': labels},
                              fetch_list=[avg_cost, acc])
print("test", test_loss, test_acc)
