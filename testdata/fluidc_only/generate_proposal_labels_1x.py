"""Faster R-CNN's generate_proposal_labels (1.x's layer; Paddle 3.3.1 has
no such op) against a numpy transcription of 1.x's CPU kernel
(detection/generate_proposal_labels_op.cc, bbox_util.h), with
use_random=False so the sampled RoIs are the first ones: two images of
proposals, one crowd box, an image without proposals, class-specific and
class-agnostic targets, and a cascade stage."""
import numpy as np
import paddle.fluid as fluid


def overlaps(a, b):
    ious = np.zeros((len(a), len(b)), dtype='float32')
    for i, r in enumerate(a):
        for j, c in enumerate(b):
            ra = (r[2] - r[0] + 1) * (r[3] - r[1] + 1)
            ca = (c[2] - c[0] + 1) * (c[3] - c[1] + 1)
            iw = max(min(r[2], c[2]) - max(r[0], c[0]) + 1, 0)
            ih = max(min(r[3], c[3]) - max(r[1], c[1]) + 1, 0)
            inter = iw * ih
            ious[i, j] = 0 if inter == 0 else inter / (ra + ca - inter)
    return ious


def deltas(ex, gt, w):
    ew, eh = ex[2] - ex[0] + 1, ex[3] - ex[1] + 1
    gw, gh = gt[2] - gt[0] + 1, gt[3] - gt[1] + 1
    ex_c = ex[0] + 0.5 * ew, ex[1] + 0.5 * eh
    gt_c = gt[0] + 0.5 * gw, gt[1] + 0.5 * gh
    return np.array([(gt_c[0] - ex_c[0]) / ew / w[0], (gt_c[1] - ex_c[1]) / eh / w[1],
                     np.log(gw / ew) / w[2], np.log(gh / eh) / w[3]])


def reference(rois, rois_lod, classes, crowd, gts, gts_lod, info, batch, fg_fraction,
              fg_thresh, bg_hi, bg_lo, weights, class_nums, agnostic, cascade):
    out_rois, labels, targets, inside, lod = [], [], [], [], [0]
    for img in range(len(rois_lod) - 1):
        r = rois[rois_lod[img]:rois_lod[img + 1]]
        if len(r) == 0:
            lod.append(lod[-1])
            continue
        g = gts[gts_lod[img]:gts_lod[img + 1]]
        cls = classes[gts_lod[img]:gts_lod[img + 1]]
        cr = crowd[gts_lod[img]:gts_lod[img + 1]]
        scale = info[img][2]
        if cascade:
            r = r[len(g):]
        boxes = np.concatenate([g, r / scale]).astype('float32')
        iou = overlaps(boxes, g)
        fg, gt_of, bg = [], [], []
        for i in range(len(boxes)):
            best = iou[i].max()
            if i < len(g) and cr[i]:
                best = -1.0
            if best >= fg_thresh:
                fg.append(i)
                gt_of.append(int(np.argmax(np.abs(best - iou[i]) < 1e-5)))
            elif bg_lo <= best < bg_hi:
                bg.append(i)
        if not cascade:
            keep = min(int(np.floor(batch * fg_fraction)), len(fg))
            fg, gt_of = fg[:keep], gt_of[:keep]
            bg = bg[:min(batch - keep, len(bg))]
        for k, b in enumerate(fg + bg):
            out_rois.append(boxes[b] * scale)
            label = int(cls[gt_of[k]]) if k < len(fg) else 0
            labels.append(label)
            t = np.zeros(4 * class_nums)
            w = np.zeros(4 * class_nums)
            if label > 0:
                col = 4 * (1 if agnostic else label)
                t[col:col + 4] = deltas(boxes[b], g[gt_of[k]], weights)
                w[col:col + 4] = 1
            targets.append(t)
            inside.append(w)
        lod.append(len(labels))
    return (np.array(out_rois).reshape(-1, 4), np.array(labels).reshape(-1, 1),
            np.array(targets).reshape(-1, 4 * class_nums),
            np.array(inside).reshape(-1, 4 * class_nums), lod)


rng = np.random.RandomState(7)
gts = np.array([[10, 10, 50, 60], [30, 40, 90, 100], [0, 0, 20, 20],
                [5, 5, 45, 45], [60, 10, 120, 70]], dtype='float32')
gts_lod = [0, 3, 3, 5]
classes = np.array([[2], [1], [3], [4], [1]], dtype='int32')
crowd = np.array([[0], [0], [1], [0], [0]], dtype='int32')
info = np.array([[128, 128, 2.0], [128, 128, 1.0], [100, 100, 1.5]], dtype='float32')
rois_per = [9, 0, 7]
rois = []
for img, n in enumerate(rois_per):
    g = gts[gts_lod[img]:gts_lod[img + 1]]
    for k in range(n):
        if len(g) and k % 2 == 0:
            # A proposal near a ground-truth box (jittered), in the scaled image.
            base = g[k % len(g)] + rng.uniform(-8, 8, 4)
        else:
            x, y = rng.uniform(0, 80, 2)
            base = np.array([x, y, x + rng.uniform(8, 40), y + rng.uniform(8, 40)])
        rois.append(base * info[img][2])
rois = np.array(rois, dtype='float32')
rois_lod = [0, 9, 9, 16]
# The middle image has proposals but no ground truth in a second run.
weights = [0.1, 0.1, 0.2, 0.2]

for agnostic, cascade, batch, fg_fraction in [(False, False, 8, 0.25), (False, False, 64, 0.5),
                                               (True, False, 6, 0.5), (False, True, 64, 0.25)]:
    class_nums = 2 if agnostic else 5
    main, startup = fluid.Program(), fluid.Program()
    with fluid.program_guard(main, startup):
        r = fluid.layers.data(name='rois', shape=[4], dtype='float32', lod_level=1)
        c = fluid.layers.data(name='classes', shape=[1], dtype='int32', lod_level=1)
        k = fluid.layers.data(name='crowd', shape=[1], dtype='int32', lod_level=1)
        g = fluid.layers.data(name='gts', shape=[4], dtype='float32', lod_level=1)
        i = fluid.layers.data(name='info', shape=[3], dtype='float32')
        outs = fluid.layers.generate_proposal_labels(
            r, c, k, g, i, batch_size_per_im=batch, fg_fraction=fg_fraction,
            fg_thresh=0.5, bg_thresh_hi=0.5, bg_thresh_lo=0.0, bbox_reg_weights=weights,
            class_nums=class_nums, use_random=False, is_cls_agnostic=agnostic,
            is_cascade_rcnn=cascade)
    assert all(o.stop_gradient for o in outs)
    assert outs[2].shape == (-1, 4 * class_nums), outs[2].shape
    place = fluid.CPUPlace()
    exe = fluid.Executor(place)
    lens = lambda lod: [lod[j + 1] - lod[j] for j in range(len(lod) - 1)]
    feed = {'rois': fluid.create_lod_tensor(rois, [lens(rois_lod)], place),
            'classes': fluid.create_lod_tensor(classes, [lens(gts_lod)], place),
            'crowd': fluid.create_lod_tensor(crowd, [lens(gts_lod)], place),
            'gts': fluid.create_lod_tensor(gts, [lens(gts_lod)], place),
            'info': info}
    got = exe.run(main, feed=feed, fetch_list=list(outs), return_numpy=False)
    # Class-agnostic: the labels stay the classes (1-4 here), the targets
    # go to the second four columns of class_nums 2.
    want = reference(rois, rois_lod, classes, crowd.ravel(), gts, gts_lod, info, batch,
                     fg_fraction, 0.5, 0.5, 0.0,
                     weights, class_nums, agnostic, cascade)
    np.testing.assert_allclose(np.array(got[0]), want[0], rtol=1e-5, atol=1e-4)
    assert np.array(got[1]).tolist() == want[1].tolist(), (np.array(got[1]).ravel(), want[1].ravel())
    np.testing.assert_allclose(np.array(got[2]), want[2], rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(np.array(got[3]), want[3])
    np.testing.assert_allclose(np.array(got[4]), want[3])
    assert got[0].lod() == [want[4]], (got[0].lod(), want[4])
    assert got[1].lod() == [want[4]]
    print(agnostic, cascade, batch, want[4], int((want[1] > 0).sum()))

# use_random samples the same numbers of RoIs, from the same candidates.
main, startup = fluid.Program(), fluid.Program()
with fluid.program_guard(main, startup):
    r = fluid.layers.data(name='rois', shape=[4], dtype='float32', lod_level=1)
    c = fluid.layers.data(name='classes', shape=[1], dtype='int32', lod_level=1)
    k = fluid.layers.data(name='crowd', shape=[1], dtype='int32', lod_level=1)
    g = fluid.layers.data(name='gts', shape=[4], dtype='float32', lod_level=1)
    i = fluid.layers.data(name='info', shape=[3], dtype='float32')
    outs = fluid.layers.generate_proposal_labels(r, c, k, g, i, batch_size_per_im=4,
                                                 fg_fraction=0.5, fg_thresh=0.5,
                                                 class_nums=5, use_random=True)
got = exe.run(main, feed=feed, fetch_list=list(outs), return_numpy=False)
assert got[0].lod() == [[0, 4, 4, 8]], got[0].lod()
print('random ok')
