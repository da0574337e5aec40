# SSD prior boxes over two feature maps of a small image, as 2019 detection
# code built them: max sizes with flipped aspect ratios, Caffe's
# min-max order, explicit steps, clipping, and the variances that go with
# the boxes. The boxes depend on the shapes only.
import numpy as np
import paddle.fluid as fluid

image = fluid.layers.data(name='image', shape=[3, 32, 40], dtype='float32')
conv1 = fluid.layers.conv2d(image, num_filters=4, filter_size=3, stride=8, padding=1)
conv2 = fluid.layers.conv2d(conv1, num_filters=4, filter_size=3, stride=2, padding=1)

box1, var1 = fluid.layers.prior_box(conv1, image, min_sizes=[8.0], max_sizes=[16.0],
                                    aspect_ratios=[2.0], flip=True)
box2, var2 = fluid.layers.prior_box(conv2, image, min_sizes=[12.0, 20.0],
                                    max_sizes=[20.0, 30.0], aspect_ratios=[2.0, 3.0],
                                    flip=True, clip=True, min_max_aspect_ratios_order=True)
box3, var3 = fluid.layers.prior_box(input=conv2, image=image, min_sizes=10.0,
                                    aspect_ratios=[1.0, 0.5], steps=[16.0, 12.0],
                                    offset=0.25, variance=[0.1, 0.1, 0.25, 0.25])
print(box1.shape, var1.shape, box2.shape, box3.shape, box1.stop_gradient, var2.stop_gradient)

exe = fluid.Executor(fluid.CPUPlace())
exe.run(fluid.default_startup_program())
np.random.seed(3)
img = np.random.rand(2, 3, 32, 40).astype('float32')
outs = exe.run(feed={'image': img}, fetch_list=[box1, var1, box2, var2, box3, var3])
for name, o in zip(['box1', 'var1', 'box2', 'var2', 'box3', 'var3'], outs):
    print(name, o.dtype, o.shape)
    print(np.round(o.reshape(-1, 4)[:7].astype('float64'), 5).tolist())
    print(round(float(o.sum()), 4), round(float(o.min()), 5), round(float(o.max()), 5))
