# Multi-class NMS as 2019 detectors post-processed their boxes: a batch of
# two images ([N, M, 4] boxes, [N, C, M] scores), background skipped,
# nms_top_k and keep_top_k cutting, adaptive NMS (nms_eta), pixel boxes,
# scores per box per class with a LoD ([M, C, 4] boxes), and the single -1
# row when nothing scores above the threshold; float64 too.
import numpy as np
import paddle.fluid as fluid

bboxes = fluid.layers.data(name='bboxes', shape=[6, 4], dtype='float32')
scores = fluid.layers.data(name='scores', shape=[3, 6], dtype='float32')
out = fluid.layers.multiclass_nms(bboxes, scores, score_threshold=0.2, nms_top_k=5,
                                  keep_top_k=4, nms_threshold=0.4)
out_all = fluid.layers.multiclass_nms(bboxes=bboxes, scores=scores, score_threshold=0.05,
                                      nms_top_k=-1, keep_top_k=-1, nms_threshold=0.6,
                                      background_label=-1, nms_eta=0.8)
out_px = fluid.layers.multiclass_nms(bboxes, scores, 0.1, 10, 3, nms_threshold=0.3,
                                     normalized=False, background_label=2)
out_none = fluid.layers.multiclass_nms(bboxes, scores, score_threshold=0.99, nms_top_k=5,
                                       keep_top_k=4)
pc_boxes = fluid.layers.data(name='pc_boxes', shape=[3, 4], dtype='float32', lod_level=1)
pc_scores = fluid.layers.data(name='pc_scores', shape=[3], dtype='float32', lod_level=1)
out_pc = fluid.layers.multiclass_nms(pc_boxes, pc_scores, score_threshold=0.1, nms_top_k=10,
                                     keep_top_k=3, nms_threshold=0.5)
b64 = fluid.layers.data(name='b64', shape=[6, 4], dtype='float64')
s64 = fluid.layers.data(name='s64', shape=[3, 6], dtype='float64')
out64 = fluid.layers.multiclass_nms(b64, s64, score_threshold=0.3, nms_top_k=4, keep_top_k=3,
                                    nms_threshold=0.35, nms_eta=0.7)
print(out.shape, out_pc.shape, out.stop_gradient)

exe = fluid.Executor(fluid.CPUPlace())
exe.run(fluid.default_startup_program())
np.random.seed(6)
lo = np.random.rand(2, 6, 2) * 0.6
b = np.concatenate([lo, lo + np.random.rand(2, 6, 2) * 0.3 + 0.1], axis=2).astype('float32')
b[0, 1] = b[0, 0] + 0.02
b[1, 4] = b[1, 3]
s = np.random.rand(2, 3, 6).astype('float32')
s[1, 1, 3] = s[1, 1, 4] = 0.9
pb = np.random.rand(5, 3, 2) * 0.5
pb = np.concatenate([pb, pb + 0.3], axis=2).astype('float32')
ps = np.random.rand(5, 3).astype('float32')
feed = {'bboxes': b, 'scores': s,
        'pc_boxes': fluid.create_lod_tensor(pb, [[2, 3]], fluid.CPUPlace()),
        'pc_scores': fluid.create_lod_tensor(ps, [[2, 3]], fluid.CPUPlace()),
        'b64': b.astype('float64') * 1.5, 's64': s.astype('float64')[::-1].copy()}
res = exe.run(feed=feed, fetch_list=[out, out_all, out_px, out_none, out_pc, out64],
              return_numpy=False)
for name, t in zip(['out', 'out_all', 'out_px', 'out_none', 'out_pc', 'out64'], res):
    o = np.array(t)
    print(name, o.shape, t.lod())
    print(np.round(o.astype('float64'), 4).tolist())
