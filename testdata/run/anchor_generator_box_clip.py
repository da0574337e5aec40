# Faster R-CNN style anchors over a feature map (several sizes and ratios,
# default and explicit offset, float64) and proposals clipped to their
# images with box_clip (a LoD batch of two images, im_info rows height,
# width, scale).
import numpy as np
import paddle.fluid as fluid

image = fluid.layers.data(name='image', shape=[3, 64, 48], dtype='float32')
feat = fluid.layers.conv2d(image, num_filters=4, filter_size=3, stride=16, padding=1)
anchors, avars = fluid.layers.anchor_generator(feat, anchor_sizes=[32, 64, 128],
                                               aspect_ratios=[0.5, 1.0, 2.0],
                                               variance=[1.0, 1.0, 1.0, 1.0],
                                               stride=[16.0, 16.0])
anchors2, avars2 = fluid.layers.anchor_generator(input=feat, anchor_sizes=40.0,
                                                 aspect_ratios=1.5, stride=[12.0, 20.0],
                                                 offset=0.25)
feat64 = fluid.layers.data(name='feat64', shape=[2, 2, 3], dtype='float64')
anchors64, avars64 = fluid.layers.anchor_generator(feat64, anchor_sizes=[24.0, 56.0],
                                                   aspect_ratios=[0.7, 1.3], stride=[10.0, 6.0],
                                                   offset=0.6)
print(anchors.shape, avars.shape, anchors2.shape, anchors.stop_gradient, anchors64.shape)

boxes = fluid.layers.data(name='boxes', shape=[4], dtype='float32', lod_level=1)
im_info = fluid.layers.data(name='im_info', shape=[3], dtype='float32')
clipped = fluid.layers.box_clip(input=boxes, im_info=im_info)
flat = fluid.layers.reshape(anchors, shape=[-1, 4])
print(clipped.shape, flat.shape)

exe = fluid.Executor(fluid.CPUPlace())
exe.run(fluid.default_startup_program())
np.random.seed(9)
img = np.random.rand(1, 3, 64, 48).astype('float32')
props = (np.random.randn(7, 4) * 30 + 20).astype('float32')
props[:, 2:] += np.abs(props[:, :2])
box_t = fluid.create_lod_tensor(props, [[3, 4]], fluid.CPUPlace())
info = np.array([[64, 48, 1.0], [40, 60, 2.0]], dtype='float32')
a, v, a2, c, a64 = exe.run(feed={'image': img, 'boxes': box_t, 'im_info': info,
                                 'feat64': np.zeros((1, 2, 2, 3))},
                           fetch_list=[anchors, avars, anchors2, clipped, anchors64],
                           return_numpy=False)
a, v, a2 = np.array(a), np.array(v), np.array(a2)
print(a.shape, a.dtype, np.round(a[0, 0].astype('float64'), 4).tolist())
print(np.round(a[3, 2, 4:].astype('float64'), 4).tolist(), round(float(a.sum()), 2))
print(v.shape, np.unique(v).tolist())
print(np.round(a2[:2, 1].astype('float64'), 4).tolist(), round(float(a2.sum()), 2))
print(np.round(props.astype('float64'), 3).tolist())
print(np.round(np.array(c).astype('float64'), 3).tolist(), c.lod())
a64 = np.array(a64)
print(a64.dtype, a64.shape, np.round(a64.reshape(-1, 4), 4).tolist())
