# A tiny SSD as 2019's object-detection examples built it: a few conv
# layers, multi_box_head over two feature maps, detection_output on the
# decoded locations and softmaxed confidences; a couple of SGD steps on a
# stand-in loss through the head (the priors take no gradient), then the
# detections of a test-mode clone, with 1.6's return_index too.
import numpy as np
import paddle.fluid as fluid

fluid.default_startup_program().random_seed = 21
image = fluid.layers.data(name='image', shape=[3, 24, 24], dtype='float32')
conv1 = fluid.layers.conv2d(image, num_filters=8, filter_size=3, stride=2, padding=1, act='relu')
conv2 = fluid.layers.conv2d(conv1, num_filters=8, filter_size=3, stride=2, padding=1, act='relu')
pool = fluid.layers.pool2d(conv2, pool_size=2, pool_stride=2)
locs, confs, boxes, variances = fluid.layers.multi_box_head(
    inputs=[conv2, pool], image=image, base_size=24, num_classes=4,
    aspect_ratios=[[2.], [2., 3.]], min_sizes=[5.0, 10.0], max_sizes=[10.0, 18.0],
    flip=True, clip=True)
nmsed = fluid.layers.detection_output(locs, confs, boxes, variances, nms_threshold=0.45,
                                      nms_top_k=20, keep_top_k=6, score_threshold=0.2)
nmsed2, index = fluid.layers.detection_output(locs, confs, boxes, variances,
                                              keep_top_k=4, score_threshold=0.25,
                                              return_index=True)
none, none_index = fluid.layers.detection_output(locs, confs, boxes, variances,
                                                 score_threshold=0.99, return_index=True)
print(locs.shape, confs.shape, boxes.shape, nmsed.shape, nmsed2.shape, index.shape)

test_program = fluid.default_main_program().clone(for_test=True)
label = fluid.layers.data(name='label', shape=[1], dtype='int64')
conf_loss = fluid.layers.softmax_with_cross_entropy(
    fluid.layers.reshape(confs, shape=[-1, 4]), label)
loss = fluid.layers.mean(conf_loss) + fluid.layers.mean(fluid.layers.abs(locs))
fluid.optimizer.SGD(learning_rate=0.2).minimize(loss)

exe = fluid.Executor(fluid.CPUPlace())
exe.run(fluid.default_startup_program())
np.random.seed(1)
img = np.random.rand(2, 3, 24, 24).astype('float32')
b = exe.run(feed={'image': img}, program=test_program, fetch_list=[boxes])[0]
print(b.shape, np.round(b[:3].astype('float64'), 4).tolist())
lab = np.random.randint(0, 4, size=(2 * b.shape[0], 1)).astype('int64')
for step in range(3):
    l, g = exe.run(feed={'image': img, 'label': lab},
                   fetch_list=[loss, 'conv2d_2.w_0@GRAD'])
    print(step, np.round(l, 4), round(float(np.abs(g).sum()), 3))
det, det2, idx, no, no_idx = exe.run(feed={'image': img}, program=test_program,
                                     fetch_list=[nmsed, nmsed2, index, none, none_index],
                                     return_numpy=False)
print(np.array(det).shape, det.lod())
print(np.round(np.array(det).astype('float64'), 4).tolist())
print(np.array(det2).shape, det2.lod(), np.array(idx).dtype, idx.lod())
print(np.array(idx).reshape(-1).tolist())
print(np.round(np.array(det2)[:, :2].astype('float64'), 4).tolist())
print(np.array(no).shape, no.lod(), np.array(no_idx).shape, no_idx.lod())
