# The target half of 1.x's ssd_loss, written out as a 2018 SSD model file
# did before ssd_loss existed: match ground truth to priors
# (bipartite_match), assign each prior its label, mine the hardest
# negatives by confidence loss (mine_hard_examples, through a LayerHelper
# as ssd_loss appended it) and assign box and label targets with weights.
import numpy as np
import paddle.fluid as fluid
from paddle.fluid.layer_helper import LayerHelper

NP, C = 6, 3


def mine_hard_examples(cls_loss, matched_indices, matched_dist, loc_loss=None,
                       neg_pos_ratio=3.0, neg_overlap=0.5, mining_type='max_negative',
                       sample_size=None):
    helper = LayerHelper('mine_hard_examples', **locals())
    neg_indices = helper.create_variable_for_type_inference(dtype='int32')
    updated = helper.create_variable_for_type_inference(dtype=matched_indices.dtype)
    helper.append_op(type='mine_hard_examples',
                     inputs={'ClsLoss': cls_loss, 'LocLoss': loc_loss,
                             'MatchIndices': matched_indices, 'MatchDist': matched_dist},
                     outputs={'NegIndices': neg_indices, 'UpdatedMatchIndices': updated},
                     attrs={'neg_pos_ratio': neg_pos_ratio, 'neg_dist_threshold': neg_overlap,
                            'mining_type': mining_type, 'sample_size': sample_size})
    return neg_indices, updated


iou = fluid.layers.data(name='iou', shape=[NP], dtype='float32', lod_level=1)
gt_label = fluid.layers.data(name='gt_label', shape=[1], dtype='int32', lod_level=1)
enc = fluid.layers.data(name='enc', shape=[NP, 4], dtype='float32', lod_level=1)
conf = fluid.layers.data(name='conf', shape=[NP, C], dtype='float32')
loc_loss = fluid.layers.data(name='loc_loss', shape=[NP], dtype='float32')
cls64 = fluid.layers.data(name='cls64', shape=[NP], dtype='float64')
dist64 = fluid.layers.data(name='dist64', shape=[NP], dtype='float64')
match_in = fluid.layers.data(name='match_in', shape=[NP], dtype='int32')

matched, dist = fluid.layers.bipartite_match(iou, 'per_prediction', 0.5)
label3 = fluid.layers.reshape(gt_label, shape=(0, -1, 1))
target_label, _ = fluid.layers.target_assign(label3, matched, mismatch_value=0)
conf2 = fluid.layers.flatten(conf, axis=2)
tl = fluid.layers.flatten(fluid.layers.cast(target_label, 'int64'), axis=2)
conf_loss = fluid.layers.softmax_with_cross_entropy(conf2, tl)
conf_loss = fluid.layers.reshape(conf_loss, shape=[-1, NP])
neg, upd = mine_hard_examples(conf_loss, matched, dist, neg_pos_ratio=1.5, neg_overlap=0.4)
hneg, hupd = mine_hard_examples(conf_loss, matched, dist, loc_loss=loc_loss,
                                mining_type='hard_example', sample_size=3)
neg64, upd64 = mine_hard_examples(cls64, match_in, dist64, neg_pos_ratio=2.0, neg_overlap=0.3)
target_bbox, loc_w = fluid.layers.target_assign(enc, upd, mismatch_value=0)
target_lab, conf_w = fluid.layers.target_assign(label3, upd, negative_indices=neg,
                                                mismatch_value=0)
hlab, hconf_w = fluid.layers.target_assign(label3, hupd, negative_indices=hneg, mismatch_value=-1)
print(target_bbox.shape, loc_w.shape, target_lab.shape, neg.shape, upd.shape)

exe = fluid.Executor(fluid.CPUPlace())
exe.run(fluid.default_startup_program())
place = fluid.CPUPlace()
rng = np.random.RandomState(3)
m = np.array([[0.1, 0.7, 0.0, 0.55, 0.2, 0.45],
              [0.8, 0.6, 0.3, 0.0, 0.9, 0.1],
              [0.35, 0.2, 0.9, 0.3, 0.6, 0.05]], dtype='float32')
feed = {
    'iou': fluid.create_lod_tensor(m, [[2, 1]], place),
    'gt_label': fluid.create_lod_tensor(np.array([[1], [2], [2]], dtype='int32'), [[2, 1]], place),
    'enc': fluid.create_lod_tensor(rng.rand(3, NP, 4).astype('float32'), [[2, 1]], place),
    'conf': rng.randn(2, NP, C).astype('float32'),
    'loc_loss': rng.rand(2, NP).astype('float32'),
    'cls64': rng.rand(2, NP),
    'dist64': np.array([[0.1, 0.2, 0.7, 0.29, 0.3, 0.0], [0.5, 0.25, 0.1, 0.2, 0.6, 0.1]]),
    'match_in': np.array([[-1, -1, 0, -1, -1, -1], [-1, -1, -1, -1, 1, -1]], dtype='int32'),
}
res = exe.run(feed=feed, fetch_list=[matched, dist, target_label, conf_loss, neg, upd, hneg, hupd,
                                     neg64, upd64, target_bbox, loc_w, target_lab, conf_w,
                                     hlab, hconf_w],
              return_numpy=False)
for t in res:
    a = np.array(t)
    print(a.dtype, a.shape, t.lod())
    print(np.round(a, 4).tolist())
