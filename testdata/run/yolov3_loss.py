# YOLOv3 training as 2019's PaddleCV yolov3 wrote it: a small backbone,
# two heads, yolov3_loss per head (anchor masks, ground truth boxes with
# labels and mixup scores, padded with empty boxes), the losses summed
# and averaged, a few momentum steps; then the loss and its gradient over
# fed heads, without label smoothing and in float64.
import numpy as np
import paddle.fluid as fluid

fluid.default_startup_program().random_seed = 9
anchors = [10, 13, 16, 30, 33, 23, 30, 61, 62, 45, 59, 119]
anchor_masks = [[3, 4, 5], [0, 1, 2]]
class_num = 3
image = fluid.layers.data(name='image', shape=[3, 32, 32], dtype='float32')
gt_box = fluid.layers.data(name='gt_box', shape=[4, 4], dtype='float32')
gt_label = fluid.layers.data(name='gt_label', shape=[4], dtype='int32')
gt_score = fluid.layers.data(name='gt_score', shape=[4], dtype='float32')
x = image
for filters in (8, 16, 16):
    x = fluid.layers.conv2d(x, num_filters=filters, filter_size=3, stride=2, padding=1,
                            act='leaky_relu')
blocks = [fluid.layers.conv2d(x, num_filters=16, filter_size=3, stride=2, padding=1), x]
losses = []
for i, (block, ratio) in enumerate(zip(blocks, (16, 8))):
    out = fluid.layers.conv2d(block, num_filters=len(anchor_masks[i]) * (5 + class_num),
                              filter_size=1)
    losses.append(fluid.layers.reduce_mean(fluid.layers.yolov3_loss(
        x=out, gt_box=gt_box, gt_label=gt_label, gt_score=gt_score, anchors=anchors,
        anchor_mask=anchor_masks[i], class_num=class_num, ignore_thresh=0.7,
        downsample_ratio=ratio, use_label_smooth=True)))
loss = fluid.layers.sum(losses)
fluid.optimizer.Momentum(learning_rate=0.001, momentum=0.9).minimize(loss)

exe = fluid.Executor(fluid.CPUPlace())
exe.run(fluid.default_startup_program())
rng = np.random.RandomState(4)


def ground_truth(n, b):
    xy = rng.uniform(0.1, 0.9, size=(n, b, 2))
    wh = rng.uniform(0.05, 0.9, size=(n, b, 2))
    boxes = np.concatenate([xy, wh], axis=2).astype('float32')
    boxes[0, -1] = 0.0  # padding
    labels = rng.randint(0, class_num, size=(n, b)).astype('int32')
    scores = rng.uniform(0.5, 1.0, size=(n, b)).astype('float32')
    return boxes, labels, scores


boxes, labels, scores = ground_truth(2, 4)
feed = {'image': rng.rand(2, 3, 32, 32).astype('float32'), 'gt_box': boxes,
        'gt_label': labels, 'gt_score': scores}
for step in range(4):
    l, l0, l1 = exe.run(feed=feed, fetch_list=[loss] + losses)
    print(step, np.round(l, 2), np.round(l0, 2), np.round(l1, 2))

main, startup = fluid.Program(), fluid.Program()
with fluid.program_guard(main, startup):
    outs = []
    for dtype in ('float32', 'float64'):
        head = fluid.layers.data(name='head_' + dtype, shape=[2 * (5 + 2), 4, 4], dtype=dtype)
        head.stop_gradient = False
        box = fluid.layers.data(name='box_' + dtype, shape=[3, 4], dtype=dtype)
        label = fluid.layers.data(name='label', shape=[3], dtype='int32')
        per_image = fluid.layers.yolov3_loss(head, box, label, [10, 14, 23, 27, 37, 58],
                                             [1, 2], 2, 0.5, 32, use_label_smooth=False)
        total = fluid.layers.reduce_sum(per_image)
        grad, = fluid.gradients(total, [head])
        outs += [per_image, grad]
values = (rng.randn(3, 14, 4, 4) * 1.5).astype('float32')
b3, l3, _ = ground_truth(3, 3)
res = exe.run(main, feed={'head_float32': values, 'head_float64': values.astype('float64'),
                          'box_float32': b3, 'box_float64': b3.astype('float64'),
                          'label': l3 % 2}, fetch_list=outs)
for r in res:
    print(r.dtype, r.shape, np.round(r.astype('float64').reshape(-1)[:8], 4).tolist())
    print(round(float(r.astype('float64').sum()), 4), round(float(np.abs(r).sum()), 4),
          int((r == 0).sum()))
