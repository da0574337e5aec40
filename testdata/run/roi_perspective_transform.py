# Text-region rectification as in 1.x's OCR detection: quadrilateral ROIs
# (an upright box, tilted and skewed quads, one running off the map) on a
# conv feature map warped onto a fixed grid by roi_perspective_transform
# (1.6's layer: the warped ROIs, the mask of grid points that sampled the
# map and the transform matrices), then the gradient back to the map and
# a few SGD steps on the conv filter through it.
from __future__ import print_function

import numpy as np
import paddle.fluid as fluid

img = fluid.layers.data(name='img', shape=[1, 8, 10], dtype='float32')
rois = fluid.layers.data(name='rois', shape=[8], dtype='float32', lod_level=1)
feat = fluid.layers.conv2d(img, num_filters=2, filter_size=3, padding=1,
                           param_attr=fluid.ParamAttr(
                               name='conv_w', initializer=fluid.initializer.Constant(0.25)),
                           bias_attr=False)
out, mask, matrix = fluid.layers.roi_perspective_transform(feat, rois, 4, 6, spatial_scale=0.5)
weights = fluid.layers.data(name='weights', shape=[2, 4, 6], dtype='float32')
loss = fluid.layers.reduce_sum(fluid.layers.elementwise_mul(out, weights))
print(out.shape, mask.shape, matrix.shape)
fluid.optimizer.SGD(learning_rate=0.01).minimize(loss)
grad = fluid.default_main_program().global_block().var(feat.name + '@GRAD')

place = fluid.CPUPlace()
exe = fluid.Executor(place)
exe.run(fluid.default_startup_program())
images = (np.arange(2 * 8 * 10).reshape(2, 1, 8, 10) % 13 * 0.5 - 2.0).astype('float32')
quads = np.array([
    [2, 2, 12, 2, 12, 8, 2, 8],          # upright, image 0
    [3, 4, 15, 1, 17, 9, 5, 12],         # tilted, image 0
    [1, 1, 9, 3, 8, 13, 0, 10],          # skewed, image 1
    [10, 6, 24, 6, 24, 20, 10, 20],      # partly off the map, image 1
], dtype='float32')
r = fluid.create_lod_tensor(quads, [[2, 2]], place)
w = (np.arange(4 * 2 * 4 * 6).reshape(4, 2, 4, 6) % 5 * 0.25 - 0.5).astype('float32')
feed = {'img': images, 'rois': r, 'weights': w}
o, m, t, g = exe.run(feed=feed, fetch_list=[out, mask, matrix, grad], return_numpy=False)
print(np.array(o).shape, o.lod(), np.array(m).dtype)


def show(values, digits=4):
    # float64 rounding, and -0.0 as 0.0.
    return (np.round(np.array(values).astype('float64'), digits) + 0.0).tolist()


print(show(np.array(o)[:, 0]))
print(np.array(m)[:, 0].tolist())
print(show(t))
print(show(np.array(g)[:, 1]))
for step in range(3):
    l, = exe.run(feed=feed, fetch_list=[loss])
    print(step, show(l, 3))
