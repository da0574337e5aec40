# SSD's multibox head as 2019 detection models built it: prior boxes and
# location/confidence convolutions over several feature maps (sizes given,
# and from min_ratio/max_ratio), one map alone, and a training step through
# the head's convolutions: their weights get gradients, the priors do not.
import numpy as np
import paddle.fluid as fluid

fluid.default_startup_program().random_seed = 11
image = fluid.layers.data(name='image', shape=[3, 32, 32], dtype='float32')
c1 = fluid.layers.conv2d(image, num_filters=4, filter_size=3, stride=4, padding=1, act='relu')
c2 = fluid.layers.conv2d(c1, num_filters=4, filter_size=3, stride=2, padding=1, act='relu')
c3 = fluid.layers.conv2d(c2, num_filters=4, filter_size=3, stride=2, padding=1, act='relu')

locs, confs, boxes, variances = fluid.layers.multi_box_head(
    inputs=[c1, c2], image=image, base_size=32, num_classes=3,
    aspect_ratios=[[2.], [2., 3.]], min_sizes=[6.0, 12.0], max_sizes=[12.0, 24.0],
    flip=True, clip=True)
print(locs.shape, confs.shape, boxes.shape, variances.shape, boxes.stop_gradient)

locs3, confs3, boxes3, vars3 = fluid.layers.multi_box_head(
    inputs=[c1, c2, c3], image=image, base_size=32, num_classes=2,
    aspect_ratios=[[2.], [2.], [2., 3.]], min_ratio=20, max_ratio=80,
    steps=[8.0, 16.0, 32.0], offset=0.5, kernel_size=3, pad=1)
print(locs3.shape, confs3.shape, boxes3.shape, vars3.shape)

one_locs, one_confs, one_boxes, one_vars = fluid.layers.multi_box_head(
    inputs=[c2], image=image, base_size=32, num_classes=2, aspect_ratios=[[2.]],
    min_sizes=[10.0], max_sizes=[20.0], min_max_aspect_ratios_order=True)
print(one_locs.shape, one_confs.shape, one_boxes.shape, one_vars.shape)

target = fluid.layers.data(name='target', shape=[1], dtype='float32')
score = fluid.layers.reduce_mean(fluid.layers.square(locs), dim=[1, 2]) + \
    fluid.layers.reduce_mean(fluid.layers.sigmoid(confs), dim=[1, 2]) + \
    fluid.layers.reduce_mean(confs3, dim=[1, 2]) + fluid.layers.reduce_mean(one_locs, dim=[1])
loss = fluid.layers.mean(fluid.layers.square(
    fluid.layers.reshape(score, shape=[-1, 1]) - target))
fluid.optimizer.SGD(learning_rate=0.1).minimize(loss)

exe = fluid.Executor(fluid.CPUPlace())
exe.run(fluid.default_startup_program())
np.random.seed(5)
img = np.random.rand(2, 3, 32, 32).astype('float32')
tgt = np.array([[0.5], [1.0]], dtype='float32')
b, v, b3, ob = exe.run(feed={'image': img, 'target': tgt},
                       fetch_list=[boxes, variances, boxes3, one_boxes])
print(np.round(b[::9].astype('float64'), 5).tolist())
print(np.round(v[:2].astype('float64'), 5).tolist(), round(float(b.sum()), 3))
print(np.round(b3[-4:].astype('float64'), 5).tolist(), round(float(b3.sum()), 3))
print(np.round(ob[1, 1].astype('float64'), 5).tolist())
grads = ['conv2d_3.w_0@GRAD', 'conv2d_4.w_0@GRAD', 'conv2d_0.w_0@GRAD']
for step in range(3):
    outs = exe.run(feed={'image': img, 'target': tgt},
                   fetch_list=[loss, locs, confs, confs3] + grads)
    print(step, np.round(outs[0], 5), np.round(outs[1][1, :2].astype('float64'), 4).tolist(),
          np.round(outs[2][0, -1].astype('float64'), 4).tolist(),
          round(float(outs[3].sum()), 3))
    print([round(float(np.abs(g).sum()), 4) for g in outs[4:]])
