# A Faster R-CNN RPN loss as 1.x's rcnn models built it: anchors from
# anchor_generator over the head's feature map, rpn_target_assign
# labelling and sampling them against each image's ground truth (a crowd
# box left out; use_random=False, 1.x's deterministic path), the sampled
# logits and box predictions gathered, sigmoid cross-entropy plus
# smooth-L1 on the inside weights, and SGD steps on the heads; then the
# sampling sizes of use_random=True, which any correct sampler prints.
from __future__ import print_function

import numpy as np
import paddle.fluid as fluid

A, H, W = 3, 4, 4
image = fluid.layers.data(name='image', shape=[4, H, W], dtype='float32')
gt_box = fluid.layers.data(name='gt_box', shape=[4], dtype='float32', lod_level=1)
is_crowd = fluid.layers.data(name='is_crowd', shape=[1], dtype='int32', lod_level=1)
im_info = fluid.layers.data(name='im_info', shape=[3], dtype='float32')

const = fluid.initializer.Constant
rpn_cls = fluid.layers.conv2d(image, num_filters=A, filter_size=1,
                              param_attr=fluid.ParamAttr(name='cls_w', initializer=const(0.1)),
                              bias_attr=fluid.ParamAttr(name='cls_b', initializer=const(-0.2)))
rpn_box = fluid.layers.conv2d(image, num_filters=4 * A, filter_size=1,
                              param_attr=fluid.ParamAttr(name='box_w', initializer=const(0.05)),
                              bias_attr=fluid.ParamAttr(name='box_b', initializer=const(0.0)))
anchor, var = fluid.layers.anchor_generator(
    rpn_cls, anchor_sizes=[16, 32], aspect_ratios=[1.0], variance=[1.0, 1.0, 1.0, 1.0],
    stride=[16.0, 16.0])
anchor = fluid.layers.reshape(anchor, shape=(-1, 4))
var = fluid.layers.reshape(var, shape=(-1, 4))
cls_logits = fluid.layers.reshape(fluid.layers.transpose(rpn_cls, perm=[0, 2, 3, 1])[:, :, :, :2],
                                  shape=(0, -1, 1))
bbox_pred = fluid.layers.reshape(
    fluid.layers.transpose(rpn_box, perm=[0, 2, 3, 1])[:, :, :, :8], shape=(0, -1, 4))
score_pred, loc_pred, score_tgt, loc_tgt, inside_w = fluid.layers.rpn_target_assign(
    bbox_pred, cls_logits, anchor, var, gt_box, is_crowd, im_info, rpn_batch_size_per_im=12,
    rpn_straddle_thresh=0.0, rpn_fg_fraction=0.25, rpn_positive_overlap=0.5,
    rpn_negative_overlap=0.3, use_random=False)
score_tgt_f = fluid.layers.cast(score_tgt, dtype='float32')
score_tgt_f.stop_gradient = True
cls_loss = fluid.layers.reduce_mean(
    fluid.layers.sigmoid_cross_entropy_with_logits(x=score_pred, label=score_tgt_f))
box_loss = fluid.layers.reduce_sum(fluid.layers.smooth_l1(
    x=loc_pred, y=loc_tgt, sigma=3.0, inside_weight=inside_w, outside_weight=inside_w))
loss = cls_loss + box_loss
fluid.optimizer.SGD(learning_rate=0.05).minimize(loss)
random_sizes = fluid.layers.rpn_target_assign(
    bbox_pred, cls_logits, anchor, var, gt_box, is_crowd, im_info, rpn_batch_size_per_im=12,
    rpn_straddle_thresh=0.0, rpn_fg_fraction=0.25, rpn_positive_overlap=0.5,
    rpn_negative_overlap=0.3, use_random=True)[2]
print(score_pred.shape, loc_pred.shape, score_tgt.shape, loc_tgt.shape, inside_w.shape)

place = fluid.CPUPlace()
exe = fluid.Executor(place)
exe.run(fluid.default_startup_program())
images = (np.arange(2 * 4 * H * W).reshape(2, 4, H, W) % 9 * 0.25 - 1.0).astype('float32')
gts = np.array([[8, 10, 30, 34], [20, 4, 44, 30], [0, 0, 60, 60],  # image 0, the last crowd
                [30, 28, 58, 56], [6, 34, 26, 60]], dtype='float32')
crowd = np.array([[0], [0], [1], [0], [0]], dtype='int32')
feed = {'image': images,
        'gt_box': fluid.create_lod_tensor(gts, [[3, 2]], place),
        'is_crowd': fluid.create_lod_tensor(crowd, [[3, 2]], place),
        'im_info': np.array([[64, 64, 1.0], [64, 64, 1.0]], dtype='float32')}


def show(values, digits=4):
    return (np.round(np.array(values).astype('float64'), digits) + 0.0).tolist()


got = exe.run(feed=feed, fetch_list=[score_pred, loc_pred, score_tgt, loc_tgt, inside_w],
              return_numpy=False)
print([np.array(t).shape for t in got], got[2].lod(), got[3].lod())
print(show(np.array(got[0]).reshape(-1)))
print(np.array(got[2]).reshape(-1).tolist())
print(show(got[3]))
print(show(got[4]))
print(show(got[1]))
for step in range(3):
    l, r = exe.run(feed=feed, fetch_list=[loss, random_sizes], return_numpy=False)
    print(step, show(np.array(l).reshape(-1), 4), np.array(r).shape, r.lod())
