# FPN's RoI routing as a 2019 Faster R-CNN FPN head used it (1.6):
# proposals of two images distributed to pyramid levels 2-5 by their size,
# each level's RoIs scored, then the best gathered back per image.
import numpy as np
import paddle.fluid as fluid

rois = fluid.layers.data(name='rois', shape=[4], dtype='float32', lod_level=1)
multi_rois, restore = fluid.layers.distribute_fpn_proposals(
    rois, min_level=2, max_level=5, refer_level=4, refer_scale=224)
# Each RoI's score: its right edge (a column that keeps the RoIs' LoD).
scores = [fluid.layers.slice(r, axes=[1], starts=[2], ends=[3]) for r in multi_rois]
collected = fluid.layers.collect_fpn_proposals(multi_rois, scores, min_level=2, max_level=5,
                                               post_nms_top_n=7)
print(len(multi_rois), restore.shape, collected.shape)

rng = np.random.RandomState(3)
boxes = []
for size in [10, 40, 100, 220, 450, 700, 30, 60, 120, 300, 15, 500, 140]:
    x, y = rng.uniform(0, 100, 2)
    boxes.append([x, y, x + size * rng.uniform(0.8, 1.2), y + size * rng.uniform(0.8, 1.2)])
boxes = np.array(boxes, dtype='float32')
place = fluid.CPUPlace()
exe = fluid.Executor(place)
outs = exe.run(feed={'rois': fluid.create_lod_tensor(boxes, [[7, 6]], place)},
               fetch_list=multi_rois + [restore, collected], return_numpy=False)
for level, t in enumerate(outs[:4]):
    print('level', level + 2, np.array(t).shape, t.lod(), np.round(np.array(t)[:, 2], 2).tolist())
print('restore', np.array(outs[4]).ravel().tolist())
print('collected', np.round(np.array(outs[5]), 2).tolist(), outs[5].lod())
