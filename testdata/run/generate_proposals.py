# A Faster R-CNN RPN's proposal step: anchors laid over a 4 x 5 feature
# map by anchor_generator, the head's objectness scores and box deltas
# fed for two images of different sizes and scales, and
# generate_proposals with its defaults, with pre/post-NMS limits, adaptive
# NMS (eta) and a large min_size.
from __future__ import print_function

import numpy as np
import paddle.fluid as fluid

A, H, W = 4, 4, 5
feat = fluid.layers.data(name='feat', shape=[8, H, W], dtype='float32')
scores = fluid.layers.data(name='scores', shape=[A, H, W], dtype='float32')
deltas = fluid.layers.data(name='deltas', shape=[4 * A, H, W], dtype='float32')
im_info = fluid.layers.data(name='im_info', shape=[3], dtype='float32')
anchors, variances = fluid.layers.anchor_generator(
    feat, anchor_sizes=[16, 32], aspect_ratios=[0.5, 1.0], variance=[1.0, 1.0, 1.0, 1.0],
    stride=[16.0, 16.0], offset=0.5)
runs = [
    fluid.layers.generate_proposals(scores, deltas, im_info, anchors, variances),
    fluid.layers.generate_proposals(scores, deltas, im_info, anchors, variances,
                                    pre_nms_top_n=24, post_nms_top_n=6, nms_thresh=0.6),
    fluid.layers.generate_proposals(scores, deltas, im_info, anchors, variances,
                                    pre_nms_top_n=40, post_nms_top_n=10, nms_thresh=0.9,
                                    eta=0.8),
    fluid.layers.generate_proposals(scores, deltas, im_info, anchors, variances,
                                    nms_thresh=0.7, min_size=24.0),
]
print([(r.shape, p.shape) for r, p in runs])

rng = np.random.RandomState(7)
n = 2 * A * H * W
feed = {
    'feat': np.zeros((2, 8, H, W), dtype='float32'),
    'scores': (rng.permutation(n) / float(n)).reshape(2, A, H, W).astype('float32'),
    'deltas': (rng.uniform(-0.4, 0.4, size=(2, 4 * A, H, W))).astype('float32'),
    'im_info': np.array([[64.0, 80.0, 1.0], [60.0, 70.0, 0.5]], dtype='float32'),
}
exe = fluid.Executor(fluid.CPUPlace())
exe.run(fluid.default_startup_program())
fetch = [v for pair in runs for v in pair]
got = exe.run(feed=feed, fetch_list=fetch, return_numpy=False)
for k in range(len(runs)):
    rois, probs = got[2 * k], got[2 * k + 1]
    print(k, np.array(rois).shape, rois.lod(), probs.lod())
    print(np.round(np.array(rois).astype('float64'), 3).tolist())
    print(np.round(np.array(probs).astype('float64').reshape(-1), 4).tolist())
