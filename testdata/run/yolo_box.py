# YOLOv3 inference as 2019's PaddleCV yolov3 wrote it: a small backbone,
# two detection heads, yolo_box on each (anchors by mask, downsample 8 and
# 16), the boxes concatenated and their transposed scores fed to
# multiclass_nms; then yolo_box over fed head values: boxes clipped to the
# image, scores zero below the objectness threshold, float64 too.
import numpy as np
import paddle.fluid as fluid

fluid.default_startup_program().random_seed = 5
anchors = [10, 13, 16, 30, 33, 23, 30, 61, 62, 45, 59, 119]
anchor_masks = [[3, 4, 5], [0, 1, 2]]
class_num = 3
image = fluid.layers.data(name='image', shape=[3, 32, 32], dtype='float32')
im_size = fluid.layers.data(name='im_size', shape=[2], dtype='int32')
x = image
for filters in (8, 16, 16):
    x = fluid.layers.conv2d(x, num_filters=filters, filter_size=3, stride=2, padding=1,
                            act='leaky_relu')
blocks = [fluid.layers.conv2d(x, num_filters=16, filter_size=3, stride=2, padding=1), x]
boxes, scores = [], []
for i, (block, ratio) in enumerate(zip(blocks, (16, 8))):
    mask_anchors = []
    for m in anchor_masks[i]:
        mask_anchors += anchors[2 * m:2 * m + 2]
    out = fluid.layers.conv2d(block, num_filters=len(anchor_masks[i]) * (5 + class_num),
                              filter_size=1)
    b, s = fluid.layers.yolo_box(x=out, img_size=im_size, anchors=mask_anchors,
                                 class_num=class_num, conf_thresh=0.3, downsample_ratio=ratio)
    boxes.append(b)
    scores.append(fluid.layers.transpose(s, perm=[0, 2, 1]))
    print(out.shape, b.shape, s.shape)
yolo_boxes = fluid.layers.concat(boxes, axis=1)
yolo_scores = fluid.layers.concat(scores, axis=2)
pred = fluid.layers.multiclass_nms(bboxes=yolo_boxes, scores=yolo_scores, score_threshold=0.2,
                                   nms_top_k=50, keep_top_k=8, nms_threshold=0.45,
                                   background_label=-1)

exe = fluid.Executor(fluid.CPUPlace())
exe.run(fluid.default_startup_program())
rng = np.random.RandomState(11)
img = rng.rand(2, 3, 32, 32).astype('float32')
sizes = np.array([[416, 416], [300, 500]], dtype='int32')
bx, sc, det = exe.run(feed={'image': img, 'im_size': sizes},
                      fetch_list=[yolo_boxes, yolo_scores, pred], return_numpy=False)
bx, sc = np.array(bx), np.array(sc)
print(bx.shape, sc.shape, int((sc > 0).sum()))
print(np.round(bx[0, :4].astype('float64'), 3).tolist())
print(np.round(bx.astype('float64').sum(axis=(1, 2)), 2).tolist())
print(np.round(sc.astype('float64').sum(axis=(1, 2)), 4).tolist())
print(np.array(det).shape, det.lod())
print(np.round(np.array(det).astype('float64'), 2).tolist())

main, startup = fluid.Program(), fluid.Program()
with fluid.program_guard(main, startup):
    head = fluid.layers.data(name='head', shape=[2 * (5 + 2), 3, 3], dtype='float32')
    head64 = fluid.layers.data(name='head64', shape=[2 * (5 + 2), 3, 3], dtype='float64')
    size = fluid.layers.data(name='size', shape=[2], dtype='int32')
    b32, s32 = fluid.layers.yolo_box(head, size, [12, 20, 40, 30], 2, 0.5, 32)
    b64, s64 = fluid.layers.yolo_box(head64, size, (12, 20, 40, 30), 2, 0.5, 32)
values = (rng.randn(2, 14, 3, 3) * 2).astype('float32')
res = exe.run(main, feed={'head': values, 'head64': values.astype('float64'),
                          'size': np.array([[96, 96], [64, 128]], dtype='int32')},
              fetch_list=[b32, s32, b64, s64])
for r in res:
    print(r.dtype, r.shape, np.round(r.astype('float64').reshape(-1)[:12], 4).tolist())
    print(round(float(np.abs(r.astype('float64')).sum()), 3), int((r == 0).sum()))
try:
    fluid.layers.yolo_box(head, size, [12, 20], 2, 1, 32)
except TypeError as e:
    print('TypeError', e)
