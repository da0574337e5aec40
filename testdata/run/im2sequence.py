# layers.im2sequence as 2018 OCR programs (CRNN-CTC) used it: the 1.x docs'
# example (2 images of 2x3x3, 2x2 patches), strides and paddings, each
# image's real size with out_stride (input_image_size), the LoD of the
# sequences fetched with return_numpy=False; then conv features turned
# into a column sequence (filter_size=[H, 1]) and a small recognizer
# trained with SGD through it.
from __future__ import print_function

import numpy as np
import paddle.fluid as fluid


def fmt(values, digits=4):
    form = '%.' + str(digits) + 'f'
    return ' '.join(form % v for v in np.array(values).flatten())


place = fluid.CPUPlace()
exe = fluid.Executor(place)

img = fluid.layers.data(name='img', shape=[2, 3, 3], dtype='float32')
wide = fluid.layers.data(name='wide', shape=[1, 4, 5], dtype='float32')
real = fluid.layers.data(name='real', shape=[2], dtype='float32')
patches = fluid.layers.im2sequence(input=img, filter_size=2, stride=1)
padded = fluid.layers.im2sequence(wide, filter_size=[2, 3], stride=[2, 2], padding=1)
uneven = fluid.layers.im2sequence(wide, filter_size=2, stride=1, padding=[0, 1, 1, 0])
by_size = fluid.layers.im2sequence(wide, filter_size=2, stride=1, input_image_size=real,
                                   out_stride=2)
print(patches.shape, padded.shape, uneven.shape, by_size.shape)

x = np.array([[[[6, 2, 1], [8, 3, 5], [0, 2, 6]],
               [[2, 4, 4], [6, 3, 0], [6, 4, 7]]],
              [[[6, 7, 1], [5, 7, 9], [2, 4, 8]],
               [[1, 2, 1], [1, 3, 5], [9, 0, 8]]]], dtype='float32')
w = np.arange(40, dtype='float32').reshape(2, 1, 4, 5) / 10.0
r = np.array([[8, 9], [5, 4]], dtype='float32')
outs = exe.run(feed={'img': x, 'wide': w, 'real': r},
               fetch_list=[patches, padded, uneven, by_size], return_numpy=False)
for name, t in zip(['patches', 'padded', 'uneven', 'by_size'], outs):
    a = np.array(t)
    print(name, a.shape, t.lod())
    print(fmt(a, 1))

train = fluid.Program()
startup = fluid.Program()
startup.random_seed = 23
with fluid.program_guard(train, startup):
    image = fluid.layers.data(name='image', shape=[1, 6, 8], dtype='float32')
    label = fluid.layers.data(name='label', shape=[1], dtype='int64')
    conv = fluid.layers.conv2d(input=image, num_filters=3, filter_size=3, padding=1,
                               act='relu')
    pool = fluid.layers.pool2d(input=conv, pool_size=2, pool_stride=2)
    columns = fluid.layers.im2sequence(input=pool, stride=[1, 1],
                                       filter_size=[pool.shape[2], 1])
    steps = fluid.layers.fc(input=columns, size=4, act='tanh')
    last = fluid.layers.sequence_pool(steps, pool_type='max')
    predict = fluid.layers.fc(input=last, size=3, act='softmax')
    loss = fluid.layers.mean(fluid.layers.cross_entropy(input=predict, label=label))
    fluid.optimizer.SGD(learning_rate=0.3).minimize(loss)
print(columns.shape)

exe.run(startup)
rng = np.random.RandomState(5)
images = rng.uniform(0, 1, (3, 1, 6, 8)).astype('float32')
labels = np.array([[0], [2], [1]], dtype='int64')
for step in range(4):
    l, c = exe.run(train, feed={'image': images, 'label': labels},
                   fetch_list=[loss, columns], return_numpy=False)
    print('step', step, fmt(np.array(l)), np.array(c).shape, c.lod())
