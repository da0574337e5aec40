"""Metrics computed in the program (1.x's `layers/metric_op.py`):
`accuracy` and `auc`."""
from .. import core
from ..framework import convert_dtype
from ..layer_helper import LayerHelper
from .nn import _check_var, topk
from .tensor import create_global_var

__all__ = ["accuracy", "auc"]


def accuracy(input, label, k=1, correct=None, total=None):
    """The fraction of rows whose label is among the `k` top scores: a
    `top_k` (its own layer, `top_k_N`), then `accuracy`, whose Correct and
    Total counts go to `correct` and `total` when given."""
    helper = LayerHelper("accuracy", **locals())
    _check_var(input, "input", "accuracy")
    _check_var(label, "label", "accuracy")
    topk_out, topk_indices = topk(input, k=k)
    acc_out = helper.create_variable_for_type_inference(dtype="float32")
    if correct is None:
        correct = helper.create_variable_for_type_inference(dtype="int64")
    if total is None:
        total = helper.create_variable_for_type_inference(dtype="int64")
    helper.append_op(type="accuracy",
                     inputs={"Out": [topk_out], "Indices": [topk_indices], "Label": [label]},
                     outputs={"Accuracy": [acc_out], "Correct": [correct], "Total": [total]})
    return acc_out


def auc(input, label, curve="ROC", num_thresholds=2 ** 12 - 1, topk=1, slide_steps=1):
    """The area under the ROC curve of the positive class's probability
    (the last column of `input`): over every batch so far and over the
    last `slide_steps` batches, each counted in persistable int64
    statistics the startup program zeroes (`_generated_var_N`). Returns
    `(auc, batch_auc, [batch_stat_pos, batch_stat_neg, stat_pos,
    stat_neg])`; `topk` is unused, as in 1.x."""
    _check_var(input, "input", "auc")
    _check_var(label, "label", "auc")
    if curve != "ROC":
        raise ValueError("curve=%r: Paddle's auc op computes the ROC curve's area only; pass "
                         "curve='ROC'" % (curve,))
    if num_thresholds < 1:
        raise ValueError("num_thresholds=%d: auc needs at least 1 (the buckets of probability "
                         "it counts in)" % num_thresholds)
    if slide_steps < 0:
        raise ValueError("slide_steps=%d: pass the number of batches the batch AUC covers, or 0 "
                         "for all of them" % slide_steps)
    shape = list(input.shape)
    if input.dtype != core.VarDesc.VarType.FP32 or len(shape) != 2:
        raise TypeError("auc takes float32 probabilities [batch, classes] (the last column the "
                        "positive class's), and `%s` is %s %s; pass a softmax or sigmoid "
                        "output, cast or reshaped" % (input.name, convert_dtype(input.dtype),
                                                      shape))
    # A label's dtype is the kernel's to refuse, when the program runs: 1.x
    # built (and saved) programs with float labels (1.6's
    # test_inference_model_io).
    helper = LayerHelper("auc", **locals())
    auc_out = helper.create_variable_for_type_inference(dtype="float64")
    batch_auc_out = helper.create_variable_for_type_inference(dtype="float64")
    ring = [(1 + slide_steps) * (num_thresholds + 1) + 1]
    stats = [create_global_var(shape=s, value=0, dtype="int64", persistable=True)
             for s in (ring, ring, [1, num_thresholds + 1], [1, num_thresholds + 1])]
    for out, pos, neg, steps in ((batch_auc_out, stats[0], stats[1], slide_steps),
                                 (auc_out, stats[2], stats[3], 0)):
        helper.append_op(type="auc",
                         inputs={"Predict": [input], "Label": [label],
                                 "StatPos": [pos], "StatNeg": [neg]},
                         outputs={"AUC": [out], "StatPosOut": [pos], "StatNegOut": [neg]},
                         attrs={"curve": curve, "num_thresholds": num_thresholds,
                                "slide_steps": steps})
    return auc_out, batch_auc_out, stats
