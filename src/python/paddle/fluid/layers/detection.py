"""The SSD-style detection layers of 1.x's `layers/detection.py`: prior
boxes and anchors over feature maps, SSD's multibox head, box coding,
IoU, clipping, multi-class NMS and SSD's detection output; SSD's matching
of predictions to ground truth (`bipartite_match`, `target_assign`) and
the mAP of detections (`detection_map`). Each
appends the ops 1.x's layer appended, with its attributes; the boxes
they make are constants of the feature maps' shapes (stop_gradient), as
in 1.x."""
import math

from ..framework import Variable
from ..layer_helper import LayerHelper
from . import manipulation
from . import nn
from . import tensor

__all__ = [
    "prior_box",
    "density_prior_box",
    "multi_box_head",
    "iou_similarity",
    "box_coder",
    "anchor_generator",
    "box_clip",
    "multiclass_nms",
    "detection_output",
    "bipartite_match",
    "target_assign",
    "ssd_loss",
    "detection_map",
    "yolo_box",
    "yolov3_loss",
    "polygon_box_transform",
    "roi_perspective_transform",
    "generate_proposals",
    "rpn_target_assign",
    "generate_proposal_labels",
    "distribute_fpn_proposals",
    "collect_fpn_proposals",
]


def _is_list_or_tuple_(data):
    return isinstance(data, (list, tuple))


def prior_box(input, image, min_sizes, max_sizes=None, aspect_ratios=[1.],
              variance=[0.1, 0.1, 0.2, 0.2], flip=False, clip=False, steps=[0.0, 0.0],
              offset=0.5, name=None, min_max_aspect_ratios_order=False):
    """Prior boxes for each place of `input`'s feature map, normalized by
    `image`'s size (1.x's layer): `(boxes, variances)`, each `[H, W,
    num_priors, 4]`."""
    helper = LayerHelper("prior_box", **locals())
    dtype = helper.input_dtype()
    if not _is_list_or_tuple_(min_sizes):
        min_sizes = [min_sizes]
    if not _is_list_or_tuple_(aspect_ratios):
        aspect_ratios = [aspect_ratios]
    if not (_is_list_or_tuple_(steps) and len(steps) == 2):
        raise ValueError('steps should be a list or tuple ',
                         'with length 2, (step_width, step_height).')
    min_sizes = list(map(float, min_sizes))
    aspect_ratios = list(map(float, aspect_ratios))
    steps = list(map(float, steps))
    attrs = {
        'min_sizes': min_sizes,
        'aspect_ratios': aspect_ratios,
        'variances': variance,
        'flip': flip,
        'clip': clip,
        'step_w': steps[0],
        'step_h': steps[1],
        'offset': offset,
        'min_max_aspect_ratios_order': min_max_aspect_ratios_order,
    }
    if max_sizes is not None and len(max_sizes) > 0 and max_sizes[0] > 0:
        if not _is_list_or_tuple_(max_sizes):
            max_sizes = [max_sizes]
        attrs['max_sizes'] = max_sizes
    box = helper.create_variable_for_type_inference(dtype)
    var = helper.create_variable_for_type_inference(dtype)
    helper.append_op(type="prior_box", inputs={"Input": input, "Image": image},
                     outputs={"Boxes": box, "Variances": var}, attrs=attrs)
    box.stop_gradient = True
    var.stop_gradient = True
    return box, var


def density_prior_box(input, image, densities=None, fixed_sizes=None, fixed_ratios=None,
                      variance=[0.1, 0.1, 0.2, 0.2], clip=False, steps=[0.0, 0.0],
                      offset=0.5, flatten_to_2d=False, name=None):
    """Density prior boxes (1.x's layer, 1.2+): per fixed size and ratio,
    a density x density grid of boxes around each place of `input`'s map:
    `(boxes, variances)`, `[H, W, num_priors, 4]` or, with
    `flatten_to_2d`, `[H * W * num_priors, 4]`."""
    helper = LayerHelper("density_prior_box", **locals())
    dtype = helper.input_dtype()
    if not _is_list_or_tuple_(densities):
        raise TypeError('densities should be a list or a tuple or None.')
    if not _is_list_or_tuple_(fixed_sizes):
        raise TypeError('fixed_sizes should be a list or a tuple or None.')
    if not _is_list_or_tuple_(fixed_ratios):
        raise TypeError('fixed_ratios should be a list or a tuple or None.')
    if len(densities) != len(fixed_sizes):
        raise ValueError('densities and fixed_sizes length should be euqal.')
    if not (_is_list_or_tuple_(steps) and len(steps) == 2):
        raise ValueError('steps should be a list or tuple ',
                         'with length 2, (step_width, step_height).')
    densities = list(map(int, densities))
    fixed_sizes = list(map(float, fixed_sizes))
    fixed_ratios = list(map(float, fixed_ratios))
    steps = list(map(float, steps))
    attrs = {
        'variances': variance,
        'clip': clip,
        'step_w': steps[0],
        'step_h': steps[1],
        'offset': offset,
        'densities': densities,
        'fixed_sizes': fixed_sizes,
        'fixed_ratios': fixed_ratios,
        'flatten_to_2d': flatten_to_2d,
    }
    box = helper.create_variable_for_type_inference(dtype)
    var = helper.create_variable_for_type_inference(dtype)
    helper.append_op(type="density_prior_box", inputs={"Input": input, "Image": image},
                     outputs={"Boxes": box, "Variances": var}, attrs=attrs)
    box.stop_gradient = True
    var.stop_gradient = True
    return box, var


def multi_box_head(inputs, image, base_size, num_classes, aspect_ratios, min_ratio=None,
                   max_ratio=None, min_sizes=None, max_sizes=None, steps=None, step_w=None,
                   step_h=None, offset=0.5, variance=[0.1, 0.1, 0.2, 0.2], flip=True,
                   clip=False, kernel_size=1, pad=0, stride=1, name=None,
                   min_max_aspect_ratios_order=False):
    """SSD's multibox head (1.x's layer): for each feature map in `inputs`,
    prior boxes and two convolutions predicting each prior's location
    offsets and class confidences. Returns `(mbox_locs, mbox_confs, boxes,
    variances)`: `[N, num_priors, 4]`, `[N, num_priors, num_classes]` and
    `[num_priors, 4]` twice over several maps; one map's flattened locs and
    confs and its 4-D boxes, as 1.x returned them."""

    def _reshape_with_axis_(input, axis=1):
        return nn.flatten(x=input, axis=axis)

    def _is_list_or_tuple_and_equal(data, length, err_info):
        if not (_is_list_or_tuple_(data) and len(data) == length):
            raise ValueError(err_info)

    if not _is_list_or_tuple_(inputs):
        raise ValueError('inputs should be a list or tuple.')

    num_layer = len(inputs)

    if num_layer <= 2:
        assert min_sizes is not None and max_sizes is not None
        assert len(min_sizes) == num_layer and len(max_sizes) == num_layer
    elif min_sizes is None and max_sizes is None:
        min_sizes = []
        max_sizes = []
        step = int(math.floor(((max_ratio - min_ratio)) / (num_layer - 2)))
        for ratio in range(min_ratio, max_ratio + 1, step):
            min_sizes.append(base_size * ratio / 100.)
            max_sizes.append(base_size * (ratio + step) / 100.)
        min_sizes = [base_size * .10] + min_sizes
        max_sizes = [base_size * .20] + max_sizes

    if aspect_ratios:
        _is_list_or_tuple_and_equal(
            aspect_ratios, num_layer,
            'aspect_ratios should be list or tuple, and the length of inputs '
            'and aspect_ratios should be the same.')
    if step_h:
        _is_list_or_tuple_and_equal(
            step_h, num_layer,
            'step_h should be list or tuple, and the length of inputs and '
            'step_h should be the same.')
    if step_w:
        _is_list_or_tuple_and_equal(
            step_w, num_layer,
            'step_w should be list or tuple, and the length of inputs and '
            'step_w should be the same.')
    if steps:
        _is_list_or_tuple_and_equal(
            steps, num_layer,
            'steps should be list or tuple, and the length of inputs and '
            'step_w should be the same.')
        step_w = steps
        step_h = steps

    mbox_locs = []
    mbox_confs = []
    box_results = []
    var_results = []
    for i, input in enumerate(inputs):
        min_size = min_sizes[i]
        max_size = max_sizes[i]

        if not _is_list_or_tuple_(min_size):
            min_size = [min_size]
        if not _is_list_or_tuple_(max_size):
            max_size = [max_size]

        aspect_ratio = []
        if aspect_ratios is not None:
            aspect_ratio = aspect_ratios[i]
            if not _is_list_or_tuple_(aspect_ratio):
                aspect_ratio = [aspect_ratio]
        # 1.x's: step_h[i] only when step_w is given.
        step = [step_w[i] if step_w else 0.0, step_h[i] if step_w else 0.0]

        box, var = prior_box(input, image, min_size, max_size, aspect_ratio, variance, flip,
                             clip, step, offset, None, min_max_aspect_ratios_order)

        box_results.append(box)
        var_results.append(var)

        num_boxes = box.shape[2]

        # get loc
        num_loc_output = num_boxes * 4
        mbox_loc = nn.conv2d(input=input, num_filters=num_loc_output, filter_size=kernel_size,
                             padding=pad, stride=stride)
        mbox_loc = nn.transpose(mbox_loc, perm=[0, 2, 3, 1])
        mbox_loc_flatten = nn.flatten(mbox_loc, axis=1)
        mbox_locs.append(mbox_loc_flatten)

        # get conf
        num_conf_output = num_boxes * num_classes
        conf_loc = nn.conv2d(input=input, num_filters=num_conf_output, filter_size=kernel_size,
                             padding=pad, stride=stride)
        conf_loc = nn.transpose(conf_loc, perm=[0, 2, 3, 1])
        conf_loc_flatten = nn.flatten(conf_loc, axis=1)
        mbox_confs.append(conf_loc_flatten)

    if len(box_results) == 1:
        box = box_results[0]
        var = var_results[0]
        mbox_locs_concat = mbox_locs[0]
        mbox_confs_concat = mbox_confs[0]
    else:
        reshaped_boxes = []
        reshaped_vars = []
        for i in range(len(box_results)):
            reshaped_boxes.append(_reshape_with_axis_(box_results[i], axis=3))
            reshaped_vars.append(_reshape_with_axis_(var_results[i], axis=3))

        box = tensor.concat(reshaped_boxes)
        var = tensor.concat(reshaped_vars)
        mbox_locs_concat = tensor.concat(mbox_locs, axis=1)
        mbox_locs_concat = nn.reshape(mbox_locs_concat, shape=[0, -1, 4])
        mbox_confs_concat = tensor.concat(mbox_confs, axis=1)
        mbox_confs_concat = nn.reshape(mbox_confs_concat, shape=[0, -1, num_classes])

    box.stop_gradient = True
    var.stop_gradient = True
    return mbox_locs_concat, mbox_confs_concat, box, var


def iou_similarity(x, y, name=None):
    """The intersection over union of each box of `x` (`[N, 4]`) with each
    of `y` (`[M, 4]`): `[N, M]`, with `x`'s LoD (1.x's layer)."""
    helper = LayerHelper("iou_similarity", **locals())
    out = helper.create_named_output(name, x.dtype)
    helper.append_op(type="iou_similarity", inputs={"X": x, "Y": y}, attrs={},
                     outputs={"Out": out})
    return out


def box_coder(prior_box, prior_box_var, target_box, code_type="encode_center_size",
              box_normalized=True, name=None, axis=0):
    """Encodes `target_box` against `prior_box` (`[N, M, 4]` offsets) or
    decodes offsets back to boxes (1.x's layer, 1.4+: `prior_box_var` a
    Variable or a list of 4 variances; `axis` the decode's broadcast)."""
    helper = LayerHelper("box_coder", **locals())
    if name is None:
        output_box = helper.create_variable_for_type_inference(dtype=prior_box.dtype)
    else:
        output_box = helper.create_variable(name=name, dtype=prior_box.dtype,
                                            persistable=False)
    inputs = {"PriorBox": prior_box, "TargetBox": target_box}
    attrs = {"code_type": code_type, "box_normalized": box_normalized, "axis": axis}
    if isinstance(prior_box_var, Variable):
        inputs['PriorBoxVar'] = prior_box_var
    elif isinstance(prior_box_var, list):
        attrs['variance'] = prior_box_var
    else:
        raise TypeError("Input variance of box_coder must be Variable or lisz")
    helper.append_op(type="box_coder", inputs=inputs, attrs=attrs,
                     outputs={"OutputBox": output_box})
    return output_box


def anchor_generator(input, anchor_sizes=None, aspect_ratios=None,
                     variance=[0.1, 0.1, 0.2, 0.2], stride=None, offset=0.5, name=None):
    """Faster R-CNN's anchors for each place of `input`'s feature map
    (1.x's layer): `(anchors, variances)`, each `[H, W, num_anchors, 4]`
    in pixels."""
    helper = LayerHelper("anchor_generator", **locals())
    dtype = helper.input_dtype()
    if not _is_list_or_tuple_(anchor_sizes):
        anchor_sizes = [anchor_sizes]
    if not _is_list_or_tuple_(aspect_ratios):
        aspect_ratios = [aspect_ratios]
    if not (_is_list_or_tuple_(stride) and len(stride) == 2):
        raise ValueError('stride should be a list or tuple ',
                         'with length 2, (stride_width, stride_height).')
    anchor_sizes = list(map(float, anchor_sizes))
    aspect_ratios = list(map(float, aspect_ratios))
    stride = list(map(float, stride))
    attrs = {
        'anchor_sizes': anchor_sizes,
        'aspect_ratios': aspect_ratios,
        'variances': variance,
        'stride': stride,
        'offset': offset,
    }
    anchor = helper.create_variable_for_type_inference(dtype)
    var = helper.create_variable_for_type_inference(dtype)
    helper.append_op(type="anchor_generator", inputs={"Input": input},
                     outputs={"Anchors": anchor, "Variances": var}, attrs=attrs)
    anchor.stop_gradient = True
    var.stop_gradient = True
    return anchor, var


def box_clip(input, im_info, name=None):
    """Each box of `input` (one LoD level: the boxes of each image) clipped
    to its image's size from `im_info` rows `(height, width, scale)`."""
    helper = LayerHelper("box_clip", **locals())
    output = helper.create_variable_for_type_inference(dtype=input.dtype)
    inputs = {"Input": input, "ImInfo": im_info}
    helper.append_op(type="box_clip", inputs=inputs, outputs={"Output": output})
    return output


def multiclass_nms(bboxes, scores, score_threshold, nms_top_k, keep_top_k, nms_threshold=0.3,
                   normalized=True, nms_eta=1., background_label=0, name=None):
    """Per-class non-maximum suppression (1.x's layer): a `[No, 6]` LoD
    tensor of `(label, score, xmin, ymin, xmax, ymax)` rows, the
    detections of each image; a single `[1, 1]` row of -1 when no image
    keeps any."""
    helper = LayerHelper('multiclass_nms', **locals())
    output = helper.create_variable_for_type_inference(dtype=bboxes.dtype)
    helper.append_op(
        type="multiclass_nms",
        inputs={'BBoxes': bboxes, 'Scores': scores},
        attrs={
            'background_label': background_label,
            'score_threshold': score_threshold,
            'nms_top_k': nms_top_k,
            'nms_threshold': nms_threshold,
            'nms_eta': nms_eta,
            'keep_top_k': keep_top_k,
            'normalized': normalized,
        },
        outputs={'Out': output})
    output.stop_gradient = True
    return output


def detection_output(loc, scores, prior_box, prior_box_var, background_label=0,
                     nms_threshold=0.3, nms_top_k=400, keep_top_k=200, score_threshold=0.01,
                     nms_eta=1.0, return_index=False):
    """SSD's detections (1.x's layer): `loc` decoded against the prior
    boxes, `scores` softmaxed, then multiclass NMS. As 1.x, the op is
    given background label 0 and nms_eta 1.0 whatever the arguments;
    `return_index` (1.6) also returns each detection's box index in the
    batch (`multiclass_nms2`)."""
    helper = LayerHelper("detection_output", **locals())
    decoded_box = box_coder(prior_box=prior_box, prior_box_var=prior_box_var,
                            target_box=loc, code_type='decode_center_size')
    scores = nn.softmax(input=scores)
    scores = nn.transpose(scores, perm=[0, 2, 1])
    scores.stop_gradient = True
    nmsed_outs = helper.create_variable_for_type_inference(dtype=decoded_box.dtype)
    attrs = {
        'background_label': 0,
        'nms_threshold': nms_threshold,
        'nms_top_k': nms_top_k,
        'keep_top_k': keep_top_k,
        'score_threshold': score_threshold,
        'nms_eta': 1.0,
    }
    if return_index:
        index = helper.create_variable_for_type_inference(dtype='int')
        helper.append_op(type="multiclass_nms2",
                         inputs={'Scores': scores, 'BBoxes': decoded_box},
                         outputs={'Out': nmsed_outs, 'Index': index}, attrs=attrs)
        index.stop_gradient = True
    else:
        helper.append_op(type="multiclass_nms",
                         inputs={'Scores': scores, 'BBoxes': decoded_box},
                         outputs={'Out': nmsed_outs}, attrs=attrs)
    nmsed_outs.stop_gradient = True
    if return_index:
        return nmsed_outs, index
    return nmsed_outs


def bipartite_match(dist_matrix, match_type=None, dist_threshold=None, name=None):
    """Greedy bipartite matching of each column of `dist_matrix` (one LoD
    sequence of rows per image) to a row, largest distance first;
    `per_prediction` then matches the columns left to their best row of
    at least `dist_threshold`. Returns (indices int32, distances)."""
    helper = LayerHelper("bipartite_match", **locals())
    match_indices = helper.create_variable_for_type_inference(dtype="int32")
    match_distance = helper.create_variable_for_type_inference(dtype=dist_matrix.dtype)
    helper.append_op(type="bipartite_match", inputs={"DistMat": dist_matrix},
                     attrs={"match_type": match_type, "dist_threshold": dist_threshold},
                     outputs={"ColToRowMatchIndices": match_indices,
                              "ColToRowMatchDist": match_distance})
    return match_indices, match_distance


def target_assign(input, matched_indices, negative_indices=None, mismatch_value=None, name=None):
    """Each prediction's target: the row of `input` (one LoD sequence per
    image) its `matched_indices` entry names, weight 1, or
    `mismatch_value`, weight 0; `negative_indices` (LoD, per image) get
    `mismatch_value` with weight 1. Returns (out, out_weight float32)."""
    helper = LayerHelper("target_assign", **locals())
    out = helper.create_variable_for_type_inference(dtype=input.dtype)
    out_weight = helper.create_variable_for_type_inference(dtype="float32")
    helper.append_op(type="target_assign",
                     inputs={"X": input, "MatchIndices": matched_indices,
                             "NegIndices": negative_indices},
                     outputs={"Out": out, "OutWeight": out_weight},
                     attrs={"mismatch_value": mismatch_value})
    return out, out_weight


def ssd_loss(location, confidence, gt_box, gt_label, prior_box, prior_box_var=None,
             background_label=0, overlap_threshold=0.5, neg_pos_ratio=3.0, neg_overlap=0.5,
             loc_loss_weight=1.0, conf_loss_weight=1.0, match_type='per_prediction',
             mining_type='max_negative', normalize=True, sample_size=None):
    """SSD's multibox loss, as 1.x composed it: match each prior to a
    ground-truth box by IoU (`iou_similarity`, `bipartite_match`), mine the
    hardest negatives by their confidence loss (`mine_hard_examples`),
    assign classification and encoded regression targets
    (`target_assign`, `box_coder`), and sum the weighted softmax and
    smooth-L1 losses per image ([N, 1]), divided by the number of matched
    priors when `normalize`."""
    helper = LayerHelper('ssd_loss', **locals())
    if mining_type != 'max_negative':
        raise ValueError("Only support mining_type == max_negative now.")
    conf_shape = manipulation.shape(confidence)

    def to_2d(var):
        return manipulation.flatten(x=var, axis=2)

    # Match priors to ground truth.
    iou = iou_similarity(x=gt_box, y=prior_box)
    matched_indices, matched_dist = bipartite_match(iou, match_type, overlap_threshold)

    # The confidence loss of every prior against its matched label, for
    # the mining.
    gt_label = manipulation.reshape(x=gt_label,
                                    shape=(len(gt_label.shape) - 1) * (0, ) + (-1, 1))
    gt_label.stop_gradient = True
    target_label, _ = target_assign(gt_label, matched_indices,
                                    mismatch_value=background_label)
    confidence = to_2d(confidence)
    target_label = tensor.cast(x=target_label, dtype='int64')
    target_label = to_2d(target_label)
    target_label.stop_gradient = True
    conf_loss = nn.softmax_with_cross_entropy(confidence, target_label)
    actual_shape = manipulation.slice(conf_shape, axes=[0], starts=[0], ends=[2])
    actual_shape.stop_gradient = True
    conf_loss = manipulation.reshape(x=conf_loss, shape=(-1, 0), actual_shape=actual_shape)
    conf_loss.stop_gradient = True

    # Hard negatives.
    neg_indices = helper.create_variable_for_type_inference(dtype='int32')
    updated_matched_indices = helper.create_variable_for_type_inference(
        dtype=matched_indices.dtype)
    helper.append_op(type='mine_hard_examples',
                     inputs={'ClsLoss': conf_loss, 'LocLoss': None,
                             'MatchIndices': matched_indices, 'MatchDist': matched_dist},
                     outputs={'NegIndices': neg_indices,
                              'UpdatedMatchIndices': updated_matched_indices},
                     attrs={'neg_pos_ratio': neg_pos_ratio, 'neg_dist_threshold': neg_overlap,
                            'mining_type': mining_type, 'sample_size': sample_size})

    # Targets: encoded boxes of the matched priors, labels with the
    # negatives as background.
    encoded_bbox = box_coder(prior_box=prior_box, prior_box_var=prior_box_var,
                             target_box=gt_box, code_type='encode_center_size')
    target_bbox, target_loc_weight = target_assign(encoded_bbox, updated_matched_indices,
                                                   mismatch_value=background_label)
    target_label, target_conf_weight = target_assign(gt_label, updated_matched_indices,
                                                     negative_indices=neg_indices,
                                                     mismatch_value=background_label)

    # The weighted losses.
    target_label = to_2d(target_label)
    target_label = tensor.cast(x=target_label, dtype='int64')
    conf_loss = nn.softmax_with_cross_entropy(confidence, target_label)
    target_conf_weight = to_2d(target_conf_weight)
    conf_loss = conf_loss * target_conf_weight
    target_label.stop_gradient = True
    target_conf_weight.stop_gradient = True

    location = to_2d(location)
    target_bbox = to_2d(target_bbox)
    loc_loss = nn.smooth_l1(location, target_bbox)
    target_loc_weight = to_2d(target_loc_weight)
    loc_loss = loc_loss * target_loc_weight
    target_bbox.stop_gradient = True
    target_loc_weight.stop_gradient = True

    loss = conf_loss_weight * conf_loss + loc_loss_weight * loc_loss
    loss = manipulation.reshape(x=loss, shape=(-1, 0), actual_shape=actual_shape)
    loss = nn.reduce_sum(loss, dim=1, keep_dim=True)
    if normalize:
        normalizer = nn.reduce_sum(target_loc_weight)
        loss = loss / normalizer
    return loss


def detection_map(detect_res, label, class_num, background_label=0, overlap_threshold=0.3,
                  evaluate_difficult=True, has_state=None, input_states=None, out_states=None,
                  ap_version='integral'):
    """The mean average precision of `detect_res` ([label, score, xmin,
    ymin, xmax, ymax] rows, one LoD sequence per image) against `label`
    ([label, difficult, box] or [label, box] rows), 'integral' or
    '11point' (1.x's layer). `input_states` (pos_count, true_pos,
    false_pos) are added in when `has_state` holds a non-zero int; the
    sums go to `out_states` (new variables by default)."""
    helper = LayerHelper("detection_map", **locals())

    def __create_var(type):
        return helper.create_variable_for_type_inference(dtype=type)

    map_out = __create_var('float32')
    accum_pos_count_out = out_states[0] if out_states else __create_var('int32')
    accum_true_pos_out = out_states[1] if out_states else __create_var('float32')
    accum_false_pos_out = out_states[2] if out_states else __create_var('float32')

    pos_count = input_states[0] if input_states else None
    true_pos = input_states[1] if input_states else None
    false_pos = input_states[2] if input_states else None

    helper.append_op(
        type="detection_map",
        inputs={'Label': label, 'DetectRes': detect_res, 'HasState': has_state,
                'PosCount': pos_count, 'TruePos': true_pos, 'FalsePos': false_pos},
        outputs={'MAP': map_out, 'AccumPosCount': accum_pos_count_out,
                 'AccumTruePos': accum_true_pos_out, 'AccumFalsePos': accum_false_pos_out},
        attrs={'overlap_threshold': overlap_threshold, 'evaluate_difficult': evaluate_difficult,
               'ap_type': ap_version, 'class_num': class_num})
    return map_out


def rpn_target_assign(bbox_pred, cls_logits, anchor_box, anchor_var, gt_boxes, is_crowd, im_info,
                      rpn_batch_size_per_im=256, rpn_straddle_thresh=0.0, rpn_fg_fraction=0.5,
                      rpn_positive_overlap=0.7, rpn_negative_overlap=0.3, use_random=True):
    """Faster R-CNN's RPN targets: the anchors (`anchor_box`, `[M, 4]`) are
    labelled foreground or background against each image's non-crowd
    ground truth (`gt_boxes`, LoD) and sampled (`use_random`); returns the
    sampled anchors' logits and box predictions (gathered from `cls_logits`
    and `bbox_pred`), their int32 labels, box targets and inside
    weights."""
    helper = LayerHelper('rpn_target_assign', **locals())
    loc_index = helper.create_variable_for_type_inference(dtype='int32')
    score_index = helper.create_variable_for_type_inference(dtype='int32')
    target_label = helper.create_variable_for_type_inference(dtype='int32')
    target_bbox = helper.create_variable_for_type_inference(dtype=anchor_box.dtype)
    bbox_inside_weight = helper.create_variable_for_type_inference(dtype=anchor_box.dtype)
    helper.append_op(
        type="rpn_target_assign",
        inputs={'Anchor': anchor_box, 'GtBoxes': gt_boxes, 'IsCrowd': is_crowd,
                'ImInfo': im_info},
        outputs={'LocationIndex': loc_index, 'ScoreIndex': score_index,
                 'TargetLabel': target_label, 'TargetBBox': target_bbox,
                 'BBoxInsideWeight': bbox_inside_weight},
        attrs={'rpn_batch_size_per_im': rpn_batch_size_per_im,
               'rpn_straddle_thresh': rpn_straddle_thresh,
               'rpn_positive_overlap': rpn_positive_overlap,
               'rpn_negative_overlap': rpn_negative_overlap,
               'rpn_fg_fraction': rpn_fg_fraction, 'use_random': use_random})
    loc_index.stop_gradient = True
    score_index.stop_gradient = True
    target_label.stop_gradient = True
    target_bbox.stop_gradient = True
    bbox_inside_weight.stop_gradient = True

    cls_logits = nn.reshape(x=cls_logits, shape=(-1, 1))
    bbox_pred = nn.reshape(x=bbox_pred, shape=(-1, 4))
    predicted_cls_logits = nn.gather(cls_logits, score_index)
    predicted_bbox_pred = nn.gather(bbox_pred, loc_index)
    return (predicted_cls_logits, predicted_bbox_pred, target_label, target_bbox,
            bbox_inside_weight)


def generate_proposals(scores, bbox_deltas, im_info, anchors, variances, pre_nms_top_n=6000,
                       post_nms_top_n=1000, nms_thresh=0.5, min_size=0.1, eta=1.0, name=None):
    """Faster R-CNN's region proposals: per image, the `pre_nms_top_n`
    best-scoring anchors decoded by `bbox_deltas` (and `variances`),
    clipped to the image (`im_info`: height, width, scale), the small ones
    dropped, then NMS keeping `post_nms_top_n`. Returns `(rpn_rois,
    rpn_roi_probs)`, `[R, 4]` and `[R, 1]`, one LoD sequence per image."""
    helper = LayerHelper('generate_proposals', **locals())
    rpn_rois = helper.create_variable_for_type_inference(dtype=bbox_deltas.dtype)
    rpn_roi_probs = helper.create_variable_for_type_inference(dtype=scores.dtype)
    helper.append_op(
        type="generate_proposals",
        inputs={'Scores': scores, 'BboxDeltas': bbox_deltas, 'ImInfo': im_info,
                'Anchors': anchors, 'Variances': variances},
        attrs={'pre_nms_topN': pre_nms_top_n, 'post_nms_topN': post_nms_top_n,
               'nms_thresh': nms_thresh, 'min_size': min_size, 'eta': eta},
        outputs={'RpnRois': rpn_rois, 'RpnRoiProbs': rpn_roi_probs})
    rpn_rois.stop_gradient = True
    rpn_roi_probs.stop_gradient = True
    return rpn_rois, rpn_roi_probs


def generate_proposal_labels(rpn_rois, gt_classes, is_crowd, gt_boxes, im_info,
                             batch_size_per_im=256, fg_fraction=0.25, fg_thresh=0.25,
                             bg_thresh_hi=0.5, bg_thresh_lo=0.0,
                             bbox_reg_weights=[0.1, 0.1, 0.2, 0.2], class_nums=None,
                             use_random=True, is_cls_agnostic=False, is_cascade_rcnn=False):
    """Faster R-CNN's second-stage targets (1.x's layer): per image, the
    proposals (`rpn_rois`, LoD) and ground-truth boxes labelled foreground
    (best IoU >= `fg_thresh`) or background (in `[bg_thresh_lo,
    bg_thresh_hi)`) and sampled to `batch_size_per_im` RoIs, a
    `fg_fraction` foreground (`use_random`: at random; otherwise the
    first ones). Returns `(rois, labels_int32, bbox_targets,
    bbox_inside_weights, bbox_outside_weights)`, the last three `[R, 4 *
    class_nums]` with a foreground RoI's targets in its class's columns;
    one LoD sequence per image."""
    helper = LayerHelper('generate_proposal_labels', **locals())
    rois = helper.create_variable_for_type_inference(dtype=rpn_rois.dtype)
    labels_int32 = helper.create_variable_for_type_inference(dtype=gt_classes.dtype)
    bbox_targets = helper.create_variable_for_type_inference(dtype=rpn_rois.dtype)
    bbox_inside_weights = helper.create_variable_for_type_inference(dtype=rpn_rois.dtype)
    bbox_outside_weights = helper.create_variable_for_type_inference(dtype=rpn_rois.dtype)
    helper.append_op(
        type="generate_proposal_labels",
        inputs={'RpnRois': rpn_rois, 'GtClasses': gt_classes, 'IsCrowd': is_crowd,
                'GtBoxes': gt_boxes, 'ImInfo': im_info},
        outputs={'Rois': rois, 'LabelsInt32': labels_int32, 'BboxTargets': bbox_targets,
                 'BboxInsideWeights': bbox_inside_weights,
                 'BboxOutsideWeights': bbox_outside_weights},
        attrs={'batch_size_per_im': batch_size_per_im, 'fg_fraction': fg_fraction,
               'fg_thresh': fg_thresh, 'bg_thresh_hi': bg_thresh_hi,
               'bg_thresh_lo': bg_thresh_lo, 'bbox_reg_weights': bbox_reg_weights,
               'class_nums': class_nums, 'use_random': use_random,
               'is_cls_agnostic': is_cls_agnostic, 'is_cascade_rcnn': is_cascade_rcnn})
    for v in (rois, labels_int32, bbox_targets, bbox_inside_weights, bbox_outside_weights):
        v.stop_gradient = True
    return rois, labels_int32, bbox_targets, bbox_inside_weights, bbox_outside_weights


def distribute_fpn_proposals(fpn_rois, min_level, max_level, refer_level, refer_scale,
                             name=None):
    """FPN's routing (1.6): each RoI of `fpn_rois` (LoD, one sequence per
    image) to the level `floor(log2(sqrt(area) / refer_scale + 1e-6) +
    refer_level)`, clamped to `[min_level, max_level]`. Returns the
    levels' RoIs (a list, lowest level first) and `restore_ind` (`[N, 1]`
    int32: each RoI's row in the levels' concatenation)."""
    helper = LayerHelper('distribute_fpn_proposals', **locals())
    dtype = helper.input_dtype('fpn_rois')
    multi_rois = [helper.create_variable_for_type_inference(dtype)
                  for _ in range(max_level - min_level + 1)]
    restore_ind = helper.create_variable_for_type_inference(dtype='int32')
    helper.append_op(
        type='distribute_fpn_proposals', inputs={'FpnRois': fpn_rois},
        outputs={'MultiFpnRois': multi_rois, 'RestoreIndex': restore_ind},
        attrs={'min_level': min_level, 'max_level': max_level, 'refer_level': refer_level,
               'refer_scale': refer_scale})
    return multi_rois, restore_ind


def collect_fpn_proposals(multi_rois, multi_scores, min_level, max_level, post_nms_top_n,
                          name=None):
    """FPN's gathering (1.6): the RoIs of the levels `min_level` to
    `max_level` (`multi_rois`, with their `multi_scores`, LoD), the
    `post_nms_top_n` best-scoring over the batch, grouped by image."""
    helper = LayerHelper('collect_fpn_proposals', **locals())
    dtype = helper.input_dtype('multi_rois')
    num_lvl = max_level - min_level + 1
    output_rois = helper.create_variable_for_type_inference(dtype)
    output_rois.stop_gradient = True
    helper.append_op(
        type='collect_fpn_proposals',
        inputs={'MultiLevelRois': multi_rois[:num_lvl],
                'MultiLevelScores': multi_scores[:num_lvl]},
        outputs={'FpnRois': output_rois}, attrs={'post_nms_topN': post_nms_top_n})
    return output_rois


def roi_perspective_transform(input, rois, transformed_height, transformed_width,
                              spatial_scale=1.0):
    """Each quadrilateral ROI (`rois`, `[R, 8]` corners clockwise from the
    top left, one LoD sequence per image) of `input` (NCHW) warped onto a
    `transformed_height` x `transformed_width` grid; returns (as 1.6) the
    warped `[R, C, th, tw]`, the int32 mask of the grid points inside the
    ROI and the map, and the `[R, 9]` transform matrices."""
    helper = LayerHelper('roi_perspective_transform', **locals())
    dtype = helper.input_dtype()
    out = helper.create_variable_for_type_inference(dtype)
    mask = helper.create_variable_for_type_inference(dtype="int32")
    transform_matrix = helper.create_variable_for_type_inference(dtype)
    out2in_idx = helper.create_variable_for_type_inference(dtype="int32")
    out2in_w = helper.create_variable_for_type_inference(dtype)
    helper.append_op(
        type="roi_perspective_transform", inputs={"X": input, "ROIs": rois},
        outputs={"Out": out, "Out2InIdx": out2in_idx, "Out2InWeights": out2in_w,
                 "Mask": mask, "TransformMatrix": transform_matrix},
        attrs={"transformed_height": transformed_height,
               "transformed_width": transformed_width, "spatial_scale": spatial_scale})
    return out, mask, transform_matrix


def polygon_box_transform(input, name=None):
    """EAST's geometry output (`[N, 2 * corners, H, W]`, each corner's
    offsets from its pixel) turned into the corners' coordinates: 4 times
    the pixel's column (x channels) or row (y channels) minus the offset."""
    helper = LayerHelper("polygon_box_transform", **locals())
    output = helper.create_named_output(name, input.dtype)
    helper.append_op(type="polygon_box_transform", inputs={"Input": input}, attrs={},
                     outputs={"Output": output})
    return output


def yolo_box(x, img_size, anchors, class_num, conf_thresh, downsample_ratio, name=None):
    """YOLOv3's boxes and class scores from the head `x` [N, A (5 +
    class_num), H, W] (1.6's layer): `(boxes, scores)`, [N, A H W, 4] in
    the pixels of `img_size` (int32 [N, 2], height and width) and [N, A H
    W, class_num]; zeros where the objectness is below `conf_thresh`."""
    helper = LayerHelper('yolo_box', **locals())
    if not isinstance(x, Variable):
        raise TypeError("Input x of yolo_box must be Variable")
    if not isinstance(img_size, Variable):
        raise TypeError("Input img_size of yolo_box must be Variable")
    if not isinstance(anchors, list) and not isinstance(anchors, tuple):
        raise TypeError("Attr anchors of yolo_box must be list or tuple")
    if not isinstance(class_num, int):
        raise TypeError("Attr class_num of yolo_box must be an integer")
    if not isinstance(conf_thresh, float):
        raise TypeError("Attr ignore_thresh of yolo_box must be a float number")
    boxes = helper.create_variable_for_type_inference(dtype=x.dtype)
    scores = helper.create_variable_for_type_inference(dtype=x.dtype)
    attrs = {
        "anchors": anchors,
        "class_num": class_num,
        "conf_thresh": conf_thresh,
        "downsample_ratio": downsample_ratio,
    }
    helper.append_op(type='yolo_box', inputs={"X": x, "ImgSize": img_size},
                     outputs={'Boxes': boxes, 'Scores': scores}, attrs=attrs)
    return boxes, scores


def yolov3_loss(x, gt_box, gt_label, anchors, anchor_mask, class_num, ignore_thresh,
                downsample_ratio, gt_score=None, use_label_smooth=True, name=None):
    """YOLOv3's loss of the head `x` [N, len(anchor_mask) (5 + class_num),
    H, H] against `gt_box` [N, B, 4] (centre x, y and width, height, as
    fractions of the image; empty boxes have zero size), int32 `gt_label`
    [N, B] and `gt_score` [N, B] (1 when None), one value per image [N]
    (1.6's layer)."""
    helper = LayerHelper('yolov3_loss', **locals())
    if not isinstance(x, Variable):
        raise TypeError("Input x of yolov3_loss must be Variable")
    if not isinstance(gt_box, Variable):
        raise TypeError("Input gtbox of yolov3_loss must be Variable")
    if not isinstance(gt_label, Variable):
        raise TypeError("Input gtlabel of yolov3_loss must be Variable")
    if gt_score is not None and not isinstance(gt_score, Variable):
        raise TypeError("Input gtscore of yolov3_loss must be Variable")
    if not isinstance(anchors, list) and not isinstance(anchors, tuple):
        raise TypeError("Attr anchors of yolov3_loss must be list or tuple")
    if not isinstance(anchor_mask, list) and not isinstance(anchor_mask, tuple):
        raise TypeError("Attr anchor_mask of yolov3_loss must be list or tuple")
    if not isinstance(class_num, int):
        raise TypeError("Attr class_num of yolov3_loss must be an integer")
    if not isinstance(ignore_thresh, float):
        raise TypeError("Attr ignore_thresh of yolov3_loss must be a float number")
    if not isinstance(use_label_smooth, bool):
        raise TypeError("Attr use_label_smooth of yolov3_loss must be a bool value")
    loss = helper.create_named_output(name, x.dtype)
    objectness_mask = helper.create_variable_for_type_inference(dtype='int32')
    gt_match_mask = helper.create_variable_for_type_inference(dtype='int32')
    inputs = {"X": x, "GTBox": gt_box, "GTLabel": gt_label}
    if gt_score is not None:
        inputs["GTScore"] = gt_score
    attrs = {
        "anchors": anchors,
        "anchor_mask": anchor_mask,
        "class_num": class_num,
        "ignore_thresh": ignore_thresh,
        "downsample_ratio": downsample_ratio,
        "use_label_smooth": use_label_smooth,
    }
    helper.append_op(type='yolov3_loss', inputs=inputs,
                     outputs={'Loss': loss, 'ObjectnessMask': objectness_mask,
                              'GTMatchMask': gt_match_mask},
                     attrs=attrs)
    return loss
