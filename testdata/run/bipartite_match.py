# SSD's matching step as 1.x's ssd_loss did it: the IoU of each image's
# ground-truth boxes (a LoD sequence of rows) with every prior, then
# bipartite_match, plain and per_prediction with a threshold.
import numpy as np
import paddle.fluid as fluid

iou = fluid.layers.data(name='iou', shape=[6], dtype='float32', lod_level=1)
iou64 = fluid.layers.data(name='iou64', shape=[6], dtype='float64', lod_level=1)
big = fluid.layers.data(name='big', shape=[140, 5], dtype='float32', append_batch_size=False)
idx, dist = fluid.layers.bipartite_match(iou)
pidx, pdist = fluid.layers.bipartite_match(iou, match_type='per_prediction')
tidx, tdist = fluid.layers.bipartite_match(iou64, 'per_prediction', 0.3)
bidx, bdist = fluid.layers.bipartite_match(big)
print(idx.dtype == fluid.core.VarDesc.VarType.INT32, dist.dtype == iou.dtype)

exe = fluid.Executor(fluid.CPUPlace())
exe.run(fluid.default_startup_program())
m = np.array([[0.1, 0.7, 0.0, 0.55, 0.2, 0.6],
              [0.8, 0.7, 0.3, 0.0, 0.9, 0.1],
              [0.0, 0.0, 0.0, 0.0, 0.0, 0.0],
              [0.35, 0.2, 0.9, 0.4, 0.6, 0.05],
              [0.3, 0.45, 0.1, 0.65, 0.2, 0.5]], dtype='float32')
place = fluid.CPUPlace()
t = fluid.create_lod_tensor(m, [[3, 2]], place)
t64 = fluid.create_lod_tensor(m.astype('float64'), [[2, 1, 2]], place)
rng = np.random.RandomState(7)
b = rng.rand(140, 5).astype('float32')
b[rng.rand(140, 5) < 0.3] = 0.0
res = exe.run(feed={'iou': t, 'iou64': t64, 'big': b},
              fetch_list=[idx, dist, pidx, pdist, tidx, tdist, bidx, bdist])
for v in res:
    print(v.dtype, v.shape)
    print(np.round(v, 4).tolist())
