# Fast R-CNN style heads: a conv feature map at half the image's scale,
# region proposals per image in a LoDTensor, pooled by roi_pool (7x7 in
# the paper, 3x2 here) and roi_align (bilinear samples, fixed and
# adaptive), a small loss and a few SGD steps through both.
import numpy as np
import paddle.fluid as fluid

fluid.default_startup_program().random_seed = 11
img = fluid.layers.data(name='img', shape=[2, 8, 10], dtype='float32')
rois = fluid.layers.data(name='rois', shape=[4], dtype='float32', lod_level=1)
feat = fluid.layers.conv2d(img, num_filters=3, filter_size=3, padding=1, act='relu',
                           param_attr=fluid.ParamAttr(name='conv_w'),
                           bias_attr=fluid.ParamAttr(name='conv_b'))
pooled = fluid.layers.roi_pool(feat, rois, pooled_height=3, pooled_width=2, spatial_scale=0.5)
aligned = fluid.layers.roi_align(feat, rois, pooled_height=2, pooled_width=2,
                                 spatial_scale=0.5, sampling_ratio=2)
adaptive = fluid.layers.roi_align(feat, rois, pooled_height=3, pooled_width=3,
                                  spatial_scale=0.5)
one = fluid.layers.roi_pool(feat, rois)
loss = (fluid.layers.reduce_mean(pooled) + fluid.layers.reduce_mean(fluid.layers.square(aligned))
        + fluid.layers.reduce_mean(adaptive) * 0.5 + fluid.layers.reduce_mean(one))
fluid.optimizer.SGD(learning_rate=0.1).minimize(loss)
print(pooled.shape, aligned.shape, adaptive.shape, one.shape)

exe = fluid.Executor(fluid.CPUPlace())
exe.run(fluid.default_startup_program())
x = (np.arange(320, dtype='float32').reshape(2, 2, 8, 10) % 13) / 6.0 - 0.8
boxes = np.array([[0, 0, 19, 15], [3.2, 2.6, 11.5, 9.4], [6, 4, 7, 5],
                  [14, 10, 30, 22], [1.4, 0.6, 8.8, 13.2]], dtype='float32')


def show(v):
    return np.round(np.asarray(v, dtype='float64'), 4).tolist()


r = fluid.create_lod_tensor(boxes, [[3, 2]], fluid.CPUPlace())
for step in range(3):
    l, p, a, ad, o, gw, gf = exe.run(
        feed={'img': x, 'rois': r},
        fetch_list=[loss, pooled, aligned, adaptive, one, 'conv_w@GRAD', feat.name + '@GRAD'])
    print(step, np.round(l, 5), p.shape, a.shape, ad.shape, o.shape)
    print(show(p[1, 2]), show(p[3, 0]))
    print(show(a[:, 1]))
    print(show(ad[4, 2]), show(o.reshape(-1)))
    print(show(gw[1, 0] * 100), show(gf[1, 0, 2:6, 4:8] * 1000))
