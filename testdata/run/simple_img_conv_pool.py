# The book's recognize_digits convolutional network, on a few fixed
# 12x12 images: two fluid.nets.simple_img_conv_pool blocks (the second
# after batch_norm), a softmax fc, Adam; the losses of a few steps.
import numpy as np
import paddle.fluid as fluid

fluid.default_startup_program().random_seed = 8
fluid.default_main_program().random_seed = 8

img = fluid.layers.data(name='img', shape=[1, 12, 12], dtype='float32')
label = fluid.layers.data(name='label', shape=[1], dtype='int64')
conv_pool_1 = fluid.nets.simple_img_conv_pool(
    input=img, filter_size=3, num_filters=4, pool_size=2, pool_stride=2, act="relu")
conv_pool_1 = fluid.layers.batch_norm(conv_pool_1)
conv_pool_2 = fluid.nets.simple_img_conv_pool(
    input=conv_pool_1, filter_size=3, num_filters=6, pool_size=2, pool_stride=2, act="relu")
prediction = fluid.layers.fc(input=conv_pool_2, size=10, act='softmax')
avg_loss = fluid.layers.mean(fluid.layers.cross_entropy(input=prediction, label=label))
fluid.optimizer.Adam(learning_rate=0.01).minimize(avg_loss)
print(conv_pool_1.shape, conv_pool_2.shape)

exe = fluid.Executor(fluid.CPUPlace())
exe.run(fluid.default_startup_program())
rng = np.random.RandomState(2)
images = rng.rand(6, 1, 12, 12).astype('float32')
labels = np.array([[3], [1], [4], [1], [5], [9]], dtype='int64')
for step in range(6):
    l, = exe.run(feed={'img': images, 'label': labels}, fetch_list=[avg_loss])
    print(step, '%.4f' % np.array(l)[0])
