# 1.x's layers.affine_channel: a frozen batch norm after a convolution, as
# 2018-19 detection backbones (Faster R-CNN's ResNet) used it, with learned
# per-channel scale and bias parameters, NCHW with an activation and NHWC;
# trained a few steps, printing the scale's and bias's gradients.
import numpy as np
import paddle.fluid as fluid

fluid.default_startup_program().random_seed = 59
img = fluid.layers.data(name='img', shape=[2, 5, 5], dtype='float32')
img.stop_gradient = False
conv = fluid.layers.conv2d(input=img, num_filters=3, filter_size=3)
scale = fluid.layers.create_parameter(shape=[3], dtype='float32', name='ac_scale',
                                      default_initializer=fluid.initializer.Constant(1.5))
bias = fluid.layers.create_parameter(shape=[3], dtype='float32', name='ac_bias',
                                     default_initializer=fluid.initializer.Constant(-0.2))
out = fluid.layers.affine_channel(conv, scale=scale, bias=bias, act='relu')
hwc = fluid.layers.transpose(img, perm=[0, 2, 3, 1])
s2 = fluid.layers.create_parameter(shape=[2], dtype='float32', name='hwc_scale',
                                   default_initializer=fluid.initializer.Constant(0.5))
b2 = fluid.layers.create_parameter(shape=[2], dtype='float32', name='hwc_bias',
                                   default_initializer=fluid.initializer.Constant(0.1))
last = fluid.layers.affine_channel(hwc, scale=s2, bias=b2, data_layout='NHWC', name='ac_hwc')
print(out.shape, last.shape, last.name)
loss = fluid.layers.mean(out) + fluid.layers.mean(fluid.layers.square(last))
fluid.optimizer.SGD(learning_rate=0.2).minimize(loss)
block = fluid.default_main_program().global_block()

exe = fluid.Executor(fluid.CPUPlace())
exe.run(fluid.default_startup_program())
feed = {'img': np.linspace(-1, 1, 2 * 2 * 5 * 5).reshape(2, 2, 5, 5).astype('float32')}
for step in range(3):
    r = exe.run(feed=feed, fetch_list=[loss, out, last, 'ac_scale@GRAD', 'ac_bias@GRAD',
                                       'hwc_scale@GRAD', 'hwc_bias@GRAD', 'img@GRAD'])
    print(step, np.round(r[0], 5).tolist())
for v in r[1:]:
    print(np.round(v, 4).reshape(-1)[:12].tolist())
