# SSD evaluation as 2018's object_detection/train.py wrote it: the
# detections of a small SSD (detection_output) scored against LoD ground
# truth (labels, boxes, difficult flags) with fluid.evaluator.DetectionMAP,
# the accumulated mAP fetched batch after batch and reset at each pass;
# then fluid.metrics.DetectionMAP (1.2's) and layers.detection_map over
# fed detections, both AP versions, difficult boxes evaluated or not.
import numpy as np
import paddle.fluid as fluid

num_classes = 4
fluid.default_startup_program().random_seed = 7
image = fluid.layers.data(name='image', shape=[3, 24, 24], dtype='float32')
gt_box = fluid.layers.data(name='gt_box', shape=[4], dtype='float32', lod_level=1)
gt_label = fluid.layers.data(name='gt_label', shape=[1], dtype='int32', lod_level=1)
difficult = fluid.layers.data(name='gt_difficult', shape=[1], dtype='int32', lod_level=1)
conv1 = fluid.layers.conv2d(image, num_filters=8, filter_size=3, stride=2, padding=1, act='relu')
conv2 = fluid.layers.conv2d(conv1, num_filters=8, filter_size=3, stride=2, padding=1, act='relu')
locs, confs, box, box_var = fluid.layers.multi_box_head(
    inputs=[conv1, conv2], image=image, base_size=24, num_classes=num_classes,
    aspect_ratios=[[2.], [2.]], min_sizes=[6.0, 12.0], max_sizes=[12.0, 20.0], flip=True,
    clip=True)
nmsed_out = fluid.layers.detection_output(locs, confs, box, box_var, nms_threshold=0.45,
                                          nms_top_k=30, keep_top_k=10, score_threshold=0.01)

test_program = fluid.default_main_program().clone(for_test=True)
with fluid.program_guard(test_program):
    map_eval = fluid.evaluator.DetectionMAP(
        nmsed_out, gt_label, gt_box, difficult, num_classes,
        overlap_threshold=0.1, evaluate_difficult=False, ap_version='11point')

exe = fluid.Executor(fluid.CPUPlace())
exe.run(fluid.default_startup_program())
rng = np.random.RandomState(3)


def lod(rows, lengths):
    t = fluid.LoDTensor()
    t.set(rows, fluid.CPUPlace())
    t.set_recursive_sequence_lengths([lengths])
    return t


def ground_truth(images):
    lengths = [int(n) for n in rng.randint(1, 4, size=images)]
    total = sum(lengths)
    xy = rng.uniform(0.0, 0.6, size=(total, 2))
    wh = rng.uniform(0.2, 0.4, size=(total, 2))
    boxes = np.concatenate([xy, xy + wh], axis=1).astype('float32')
    labels = rng.randint(1, num_classes, size=(total, 1)).astype('int32')
    hard = (rng.rand(total, 1) < 0.3).astype('int32')
    return boxes, labels, hard, lengths


def test_batch():
    boxes, labels, hard, lengths = ground_truth(2)
    return {'image': rng.rand(2, 3, 24, 24).astype('float32'),
            'gt_box': lod(boxes, lengths), 'gt_label': lod(labels, lengths),
            'gt_difficult': lod(hard, lengths)}


cur_map, accum_map = map_eval.get_map_var()
for pass_id in range(2):
    map_eval.reset(exe)
    for batch_id in range(3):
        test_map, batch_map, det = exe.run(test_program, feed=test_batch(),
                                           fetch_list=[accum_map, cur_map, nmsed_out],
                                           return_numpy=False)
        print("Pass {0}, batch {1}, detections {2}, map {3:.5f} (batch {4:.5f})".format(
            pass_id, batch_id, np.array(det).shape[0], float(np.array(test_map)[0]),
            float(np.array(batch_map)[0])))

# fed detections: a perturbed copy of each ground truth box, some boxes
# of the wrong class, some out of the image (clipped).
main, startup = fluid.Program(), fluid.Program()
with fluid.program_guard(main, startup):
    det_res = fluid.layers.data(name='det', shape=[6], dtype='float32', lod_level=1)
    gt_box = fluid.layers.data(name='gt_box', shape=[4], dtype='float32', lod_level=1)
    gt_label = fluid.layers.data(name='gt_label', shape=[1], dtype='int32', lod_level=1)
    difficult = fluid.layers.data(name='gt_difficult', shape=[1], dtype='int32', lod_level=1)
    metrics = [fluid.metrics.DetectionMAP(det_res, gt_label, gt_box, difficult, num_classes,
                                          evaluate_difficult=False, ap_version=version)
               for version in ('integral', '11point')]
    metrics.append(fluid.metrics.DetectionMAP(det_res, gt_label, gt_box, None, num_classes,
                                              overlap_threshold=0.6, ap_version='integral'))
    label5 = fluid.layers.concat([fluid.layers.cast(gt_label, 'float32'), gt_box], axis=1)
    plain = fluid.layers.detection_map(det_res, label5, num_classes, overlap_threshold=0.5,
                                       ap_version='11point')
exe.run(startup)


def fed_batch(images):
    boxes, labels, hard, lengths = ground_truth(images)
    rows, det_lengths, at = [], [], 0
    for n in lengths:
        k = 0
        for i in range(at, at + n):
            for _ in range(rng.randint(1, 3)):
                b = boxes[i] + rng.uniform(-0.08, 0.08, size=4)
                label = labels[i, 0] if rng.rand() < 0.8 else rng.randint(1, num_classes)
                rows.append([label, rng.rand()] + list(b))
                k += 1
        for _ in range(rng.randint(0, 3)):
            xy = rng.uniform(-0.2, 0.9, size=2)
            rows.append([rng.randint(1, num_classes), rng.rand() * 0.5] + list(xy) + list(xy + 0.3))
            k += 1
        det_lengths.append(k)
        at += n
    feed = {'det': lod(np.array(rows, dtype='float32'), det_lengths),
            'gt_box': lod(boxes, lengths), 'gt_label': lod(labels, lengths),
            'gt_difficult': lod(hard, lengths)}
    return feed, int(hard.sum())


fetch = [v for m in metrics for v in m.get_map_var()] + [plain]
for epoch in range(2):
    for m in metrics:
        m.reset(exe)
    for step in range(3):
        feed, hard_count = fed_batch(3)
        values = exe.run(main, feed=feed, fetch_list=fetch)
        print(epoch, step, hard_count, ' '.join('%.5f' % float(v[0]) for v in values))
