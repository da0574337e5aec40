# IoU between ground-truth boxes (a LoD batch of two images) and prior
# boxes, as SSD's target matching started from it: the output keeps the
# ground truth's LoD; disjoint, nested and identical boxes; float64 too.
import numpy as np
import paddle.fluid as fluid

gt = fluid.layers.data(name='gt', shape=[4], dtype='float32', lod_level=1)
priors = fluid.layers.data(name='priors', shape=[4], dtype='float32')
iou = fluid.layers.iou_similarity(x=gt, y=priors)
best = fluid.layers.reduce_max(iou, dim=1)
a64 = fluid.layers.data(name='a64', shape=[4], dtype='float64')
iou64 = fluid.layers.iou_similarity(a64, a64, name='self_iou')
print(iou.shape, iou64.shape, iou64.name)

exe = fluid.Executor(fluid.CPUPlace())
exe.run(fluid.default_startup_program())
np.random.seed(4)
lo = np.random.rand(6, 2) * 0.6
boxes = np.hstack([lo, lo + np.random.rand(6, 2) * 0.4 + 0.05]).astype('float32')
boxes[5] = boxes[0]
pri = np.array([[0.0, 0.0, 0.5, 0.5], [0.25, 0.25, 0.75, 0.75], [0.5, 0.5, 1.0, 1.0],
                [0.9, 0.9, 1.0, 1.0], [0.1, 0.2, 0.3, 0.4]], dtype='float32')
pri = np.vstack([pri, boxes[0:1]])
gt_t = fluid.create_lod_tensor(boxes, [[4, 2]], fluid.CPUPlace())
b64 = np.array([[0.0, 0.0, 2.0, 2.0], [1.0, 1.0, 3.0, 3.0], [0.5, 0.5, 1.5, 1.5]])
out, m, o64 = exe.run(feed={'gt': gt_t, 'priors': pri, 'a64': b64},
                      fetch_list=[iou, best, iou64], return_numpy=False)
print(np.array(out).dtype, np.array(out).shape, out.lod())
print(np.round(np.array(out).astype('float64'), 5).tolist())
print(np.round(np.array(m).astype('float64'), 5).tolist())
print(np.array(o64).dtype, np.round(np.array(o64), 6).tolist())
