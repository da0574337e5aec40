# SSD training as 2018-19's object-detection examples wrote it (MobileNet-
# SSD on Pascal VOC, shrunk): conv layers, multi_box_head, ssd_loss on
# ground-truth boxes and labels fed as LoD tensors (one sequence per
# image), a few momentum steps, then detection_output on a test clone.
import numpy as np
import paddle.fluid as fluid

fluid.default_startup_program().random_seed = 5
image = fluid.layers.data(name='image', shape=[3, 32, 32], dtype='float32')
gt_box = fluid.layers.data(name='gt_box', shape=[4], dtype='float32', lod_level=1)
gt_label = fluid.layers.data(name='gt_label', shape=[1], dtype='int32', lod_level=1)
conv1 = fluid.layers.conv2d(image, num_filters=8, filter_size=3, stride=2, padding=1, act='relu')
conv2 = fluid.layers.conv2d(conv1, num_filters=8, filter_size=3, stride=2, padding=1, act='relu')
conv3 = fluid.layers.conv2d(conv2, num_filters=8, filter_size=3, stride=2, padding=1, act='relu')
conv4 = fluid.layers.conv2d(conv3, num_filters=8, filter_size=3, stride=2, padding=1, act='relu')
locs, confs, box, box_var = fluid.layers.multi_box_head(
    inputs=[conv2, conv3, conv4], image=image, base_size=32, num_classes=3,
    aspect_ratios=[[2.], [2.], [2.]], min_ratio=20, max_ratio=90, offset=0.5, flip=True,
    clip=True)
nmsed = fluid.layers.detection_output(locs, confs, box, box_var, nms_threshold=0.45,
                                      score_threshold=0.01, keep_top_k=5)
test_program = fluid.default_main_program().clone(for_test=True)
loss = fluid.layers.ssd_loss(locs, confs, gt_box, gt_label, box, box_var)
loss = fluid.layers.reduce_sum(loss)
fluid.optimizer.Momentum(learning_rate=0.05, momentum=0.9).minimize(loss)
print(locs.shape, confs.shape, box.shape, loss.shape)

exe = fluid.Executor(fluid.CPUPlace())
exe.run(fluid.default_startup_program())
place = fluid.CPUPlace()
np.random.seed(3)
img = np.random.rand(2, 3, 32, 32).astype('float32')
# Two boxes in the first image, one in the second (normalized xmin, ymin,
# xmax, ymax), classes 1 and 2.
boxes = np.array([[0.1, 0.1, 0.5, 0.6], [0.55, 0.2, 0.95, 0.7],
                  [0.3, 0.3, 0.8, 0.9]], dtype='float32')
labels = np.array([[1], [2], [1]], dtype='int32')
feed = {'image': img,
        'gt_box': fluid.create_lod_tensor(boxes, [[2, 1]], place),
        'gt_label': fluid.create_lod_tensor(labels, [[2, 1]], place)}
for step in range(4):
    l, = exe.run(feed=feed, fetch_list=[loss])
    print('step %d loss %.5f %s' % (step, l[0], l.shape))
det, = exe.run(test_program, feed={'image': img}, fetch_list=[nmsed], return_numpy=False)
d = np.array(det)
print(d.shape, det.lod())
print(np.round(d[:, :2].astype('float64'), 4).tolist())
