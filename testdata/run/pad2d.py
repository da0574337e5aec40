# 1.x's layers.pad2d: feature maps padded before a convolution with zeros,
# a constant, their mirror image ('reflect', as 2019 style-transfer and
# super-resolution nets padded) or their edge repeated ('edge'), in NCHW
# and NHWC, and with paddings fed at run time; trained a few steps, the
# input's gradient gathers what each padded copy received.
import numpy as np
import paddle.fluid as fluid

fluid.default_startup_program().random_seed = 13
img = fluid.layers.data(name='img', shape=[2, 3, 4], dtype='float32')
img.stop_gradient = False
hwc = fluid.layers.data(name='hwc', shape=[3, 3, 2], dtype='float32')
hwc.stop_gradient = False
sizes = fluid.layers.data(name='sizes', shape=[4], dtype='int32', append_batch_size=False)
zero = fluid.layers.pad2d(img, paddings=[1, 0, 0, 2])
const = fluid.layers.pad2d(img, paddings=[1, 1, 1, 1], pad_value=-0.5)
mirror = fluid.layers.pad2d(img, paddings=[2, 1, 3, 2], mode='reflect')
edge = fluid.layers.pad2d(img, paddings=[0, 2, 1, 3], mode='edge')
last = fluid.layers.pad2d(hwc, paddings=[1, 2, 2, 1], mode='reflect', data_format='NHWC')
fed = fluid.layers.pad2d(img, paddings=sizes, mode='edge')
print(zero.shape, const.shape, mirror.shape, edge.shape, last.shape)
conv = fluid.layers.conv2d(input=mirror, num_filters=2, filter_size=3, act='relu')
loss = fluid.layers.mean(conv) + fluid.layers.reduce_mean(edge * edge) \
    + fluid.layers.reduce_sum(last) * 0.01 + fluid.layers.reduce_sum(zero) * 0.1 \
    + fluid.layers.reduce_mean(const) + fluid.layers.reduce_max(fed)
fluid.optimizer.SGD(learning_rate=0.1).minimize(loss)
block = fluid.default_main_program().global_block()

exe = fluid.Executor(fluid.CPUPlace())
exe.run(fluid.default_startup_program())
feed = {'img': np.linspace(-1, 1, 2 * 2 * 3 * 4).reshape(2, 2, 3, 4).astype('float32'),
        'hwc': np.arange(2 * 3 * 3 * 2).reshape(2, 3, 3, 2).astype('float32') / 10,
        'sizes': np.array([2, 0, 1, 1]).astype('int32')}
for step in range(3):
    out = exe.run(feed=feed, fetch_list=[loss, zero, const, mirror, edge, last, fed,
                                         block.var('img@GRAD'), block.var('hwc@GRAD')])
    print(step, np.round(out[0], 5).tolist(), [o.shape for o in out[1:7]])
for o in out[1:]:
    print(np.round(o[0], 4).tolist())
