"""Layers of 1.6's `layers/nn.py` that had an op of their own there and
that fluidc builds from other ops, with the values 1.6's op gave:

- `fsp_matrix(x, y)`: 1.6's `fsp` op was a batched `x y^T / (h w)`
  over the flattened feature maps: here reshapes and a `matmul` whose
  alpha is `1 / (h w)`, as the op's GEMM had.
- `unfold(x, ...)` (im2col): each sliding block's values are a
  grouped convolution's outputs with one-hot filters (a value times 1
  plus zeros, exact), reshaped to `[N, C * kh * kw, L]` in 1.6's order
  (channel, then kernel row, then kernel column). A non-finite value
  would spread (inf times 0) where 1.6 copied it.
- `teacher_student_sigmoid_loss(input, label)`: 1.6's op summed two
  sigmoid cross entropies (the click, and the teacher's score when the
  label carries one): here two `sigmoid_cross_entropy_with_logits`; its
  gradient, zero where the input is out of the soft-max bounds, is kept
  by letting the gradient through only inside them.
- `sigmoid_focal_loss(x, label, fg_num)` (layers/detection.py): 1.6's
  op's expression, term by term (its clamp of p at FLT_MIN, its stable
  log(1 - p) = -softplus(x)); the gradient is these ops' own, the op's
  closed form, but where p is below FLT_MIN (x < -87), whose clamped
  log has no gradient here.
- `crop_tensor(x, shape, offsets)` with a shape of ints (-1: up to the
  end of the dim): the `crop` op, offsets as ints or an int32 Variable.
  A shape given as a Variable, or holding Variables, needs 1.6's
  `crop_tensor` op, which fluidc does not have."""
import numpy as np

from ..framework import Variable, convert_dtype
from ..layer_helper import LayerHelper
from . import control_flow
from . import manipulation
from . import nn
from . import ops
from . import tensor

__all__ = ["fsp_matrix", "unfold", "crop_tensor", "teacher_student_sigmoid_loss",
           "sigmoid_focal_loss"]
# Their 1.6 modules (fluid.layers.nn.unfold, fluid.layers.detection.sigmoid_focal_loss).
_IN_NN = ("fsp_matrix", "unfold", "crop_tensor", "teacher_student_sigmoid_loss")
_IN_DETECTION = ("sigmoid_focal_loss",)


def fsp_matrix(x, y):
    """1.6's FSP matrix of two `[N, C, H, W]` feature maps of the same H
    and W: `[N, C_x, C_y]`, the mean over positions of the channels'
    products."""
    if len(x.shape) != 4 or len(y.shape) != 4:
        raise ValueError("fsp_matrix takes 4-D feature maps [N, C, H, W], not %s and %s"
                         % (list(x.shape), list(y.shape)))
    h, w = x.shape[2], x.shape[3]
    if h < 0 or w < 0 or [h, w] != list(y.shape[2:]):
        raise ValueError("fsp_matrix's x and y must have the same known height and width: "
                         "%s and %s" % (list(x.shape), list(y.shape)))
    flat_x = manipulation.reshape(x, [0, x.shape[1], h * w])
    flat_y = manipulation.reshape(y, [0, y.shape[1], h * w])
    return nn.matmul(flat_x, flat_y, transpose_y=True, alpha=1.0 / (h * w))


def _pair(value, what):
    if isinstance(value, int):
        return [value, value]
    assert isinstance(value, list) and len(value) == 2, \
        "%s should either be an integer or a list of two integers" % what
    return value


def unfold(x, kernel_sizes, strides=1, paddings=0, dilations=1, name=None):
    """1.6's im2col of a `[N, C, H, W]` batch: `[N, C * kh * kw, L]`, a
    column per sliding block (L blocks). `paddings`: one int, `[ph, pw]`,
    or `[top, left, bottom, right]`."""
    assert len(x.shape) == 4, "input should be the format of [N, C, H, W]"
    kernel_sizes = _pair(kernel_sizes, "kernel_sizes")
    strides = _pair(strides, "strides")
    dilations = _pair(dilations, "dilations")
    if isinstance(paddings, int):
        paddings = [paddings] * 4
    elif isinstance(paddings, list):
        if len(paddings) == 2:
            paddings = paddings * 2
        elif len(paddings) != 4:
            raise ValueError("paddings should either be an integer or a list of 2 or 4 integers")
    else:
        raise ValueError("Unexpected type of paddings, it should be either an integer or a list"
                         "of 2 or 4 integers")
    channels = x.shape[1]
    if channels < 0:
        raise ValueError("unfold needs x's channels known, not %s" % (list(x.shape),))
    kh, kw = kernel_sizes
    blocks = kh * kw
    # Output channel c * kh * kw + i * kw + j takes (i, j) of channel c.
    one_hot = np.zeros([channels * blocks, 1, kh, kw], dtype=convert_dtype(x.dtype))
    for c in range(channels):
        for k in range(blocks):
            one_hot[c * blocks + k, 0, k // kw, k % kw] = 1
    helper = LayerHelper("unfold", **locals())
    filters = tensor.assign(one_hot)
    filters.stop_gradient = True
    cols = helper.create_variable_for_type_inference(dtype=x.dtype)
    top, left, bottom, right = paddings
    helper.append_op(type="conv2d", inputs={"Input": x, "Filter": filters},
                     outputs={"Output": cols},
                     attrs={"strides": strides, "paddings": [top, bottom, left, right],
                            "dilations": dilations, "groups": channels, "use_cudnn": False,
                            "use_mkldnn": False, "padding_algorithm": "EXPLICIT",
                            "data_format": "NCHW"})
    # L in the shape when H and W are known, as 1.6's InferShape gave it.
    blocks_out = -1
    if x.shape[2] >= 0 and x.shape[3] >= 0:
        def count(size, k, pad, stride, dilation):
            return (size + pad - (dilation * (k - 1) + 1)) // stride + 1
        blocks_out = (count(x.shape[2], kh, top + bottom, strides[0], dilations[0]) *
                      count(x.shape[3], kw, left + right, strides[1], dilations[1]))
    return manipulation.reshape(cols, [0, channels * blocks, blocks_out])


def crop_tensor(x, shape=None, offsets=None, name=None):
    """1.6's crop of `x` to `shape` (ints; -1 keeps the rest of a dim)
    at `offsets` (ints, or an int32 Variable of one per dim; zeros by
    default)."""
    if convert_dtype(x.dtype) not in ['float32', 'float64', 'int32', 'int64']:
        raise TypeError("Input(x)'s dtype of Op(crop_tensor) must be float32, float64, int32 or "
                        "int64, but received %s." % (convert_dtype(x.dtype)))
    if not isinstance(shape, (list, tuple, Variable)):
        raise TypeError("Attr(shape) of Op(crop_tensor) should be a list, tuple or Variable.")
    if offsets is None:
        offsets = [0] * len(x.shape)
    if not isinstance(offsets, (list, tuple, Variable)):
        raise TypeError("Attr(offsets) of Op(crop_tensor) should be a list, tuple or Variable.")
    if isinstance(shape, Variable) or any(isinstance(d, Variable) for d in shape):
        raise NotImplementedError("crop_tensor with a shape known only at run time needs 1.6's "
                                  "crop_tensor op, which fluidc does not have; give the shape "
                                  "as ints")
    for d in shape:
        if not isinstance(d, int):
            raise TypeError("Attr(shape)'s dtype of Op(crop_tensor) should be int32, but "
                            "received: %s." % type(d))
        if d == 0:
            raise ValueError("Attr(shape) of Op(crop_tensor) should not be zero, but received: "
                             "%s." % str(d))
        if d < -1:
            raise ValueError("When the element in Attr(shape) of Op(crop_tensor) is negative, "
                             "only -1 is supported, but received: %s." % str(d))
    if isinstance(offsets, Variable):
        if -1 in shape:
            raise NotImplementedError("crop_tensor's -1 dims with offsets known only at run "
                                      "time need 1.6's crop_tensor op, which fluidc does not "
                                      "have")
        offsets.stop_gradient = True
        return nn.crop(x, shape=list(shape), offsets=offsets)
    if any(isinstance(o, Variable) for o in offsets):
        raise NotImplementedError("crop_tensor with offsets holding Variables needs 1.6's "
                                  "crop_tensor op, which fluidc does not have; give one int32 "
                                  "Variable of every offset")
    for o in offsets:
        if not isinstance(o, int):
            raise TypeError("Attr(offsets)'s dtype of Op(crop_tensor) should be int32, but "
                            "received: %s." % type(o))
        if o < 0:
            raise ValueError("Attr(offsets) of Op(crop_tensor) should be greater or equal to "
                             "zero, but received: %s." % str(o))
    dims = []
    for i, (d, o) in enumerate(zip(shape, offsets)):
        if d == -1 and x.shape[i] >= 0:
            d = x.shape[i] - o
        elif d == -1 and (i != 0 or o != 0):
            raise NotImplementedError("crop_tensor's -1 dim %d of x %s, unknown until run "
                                      "time, needs 1.6's crop_tensor op" % (i, list(x.shape)))
        dims.append(d)
    return nn.crop(x, shape=dims, offsets=list(offsets))


_FLT_MIN = 1.1754943508222875e-38


def sigmoid_focal_loss(x, label, fg_num, gamma=2, alpha=0.25):
    """1.6's focal loss (RetinaNet) of `[N, C]` logits `x` against int32
    labels `[N, 1]` (1..C a class, 0 the background, -1 ignored) over the
    int32 `[1]` foreground count `fg_num` (taken as 1 when below it): for
    class d of a row, with p = sigmoid(x),
    `-[label == d + 1] * alpha / fg * (1 - p)^gamma * log(max(p, FLT_MIN))
    - [label not in (-1, d + 1)] * (1 - alpha) / fg * p^gamma * log(1 - p)`,
    log(1 - p) as the op computed it, `-max(x, 0) - log(1 + exp(-|x|))`,
    which is -softplus(x)."""
    if len(x.shape) != 2:
        raise ValueError("sigmoid_focal_loss takes [N, C] logits, not %s" % (list(x.shape),))
    num_classes = x.shape[1]
    dtype = x.dtype
    positive = nn.slice(nn.one_hot(label, num_classes + 1, allow_out_of_range=True),
                        axes=[1], starts=[1], ends=[num_classes + 1])
    positive = tensor.cast(positive, dtype)
    kept = tensor.cast(control_flow.not_equal(
        label, tensor.fill_constant([1], label.dtype, -1)), dtype)
    negative = nn.elementwise_mul(nn.scale(positive, scale=-1.0, bias=1.0), kept, axis=0)
    fg = nn.elementwise_max(tensor.cast(fg_num, dtype), tensor.fill_constant([1], dtype, 1.0))
    fg.stop_gradient = True
    p = ops.sigmoid(x)
    log_p = ops.log(nn.elementwise_max(p, tensor.fill_constant([1], dtype, _FLT_MIN)))
    term_pos = nn.elementwise_mul(nn.pow(nn.scale(p, scale=-1.0, bias=1.0), factor=float(gamma)),
                                  log_p)
    # log(1 - p) = -softplus(x): its stable form, and a smooth gradient.
    log_not_p = nn.scale(ops.softplus(x), scale=-1.0)
    term_neg = nn.elementwise_mul(nn.pow(p, factor=float(gamma)), log_not_p)
    pos_part = nn.elementwise_mul(nn.elementwise_mul(positive, term_pos),
                                  nn.scale(fg, scale=0.0, bias=float(alpha)) / fg)
    neg_part = nn.elementwise_mul(nn.elementwise_mul(negative, term_neg),
                                  nn.scale(fg, scale=0.0, bias=1.0 - float(alpha)) / fg)
    return nn.scale(nn.elementwise_add(pos_part, neg_part), scale=-1.0)


def _float_mask(condition, dtype):
    mask = tensor.cast(condition, dtype)
    mask.stop_gradient = True
    return mask


def teacher_student_sigmoid_loss(input, label, soft_max_up_bound=15.0,
                                 soft_max_lower_bound=-15.0):
    """1.6's distillation loss of CTR logits `input` `[N, 1]` against
    `label`, which carries the click z and maybe a teacher's score t: below
    -1, z = 0 alone; in [-1, 0), z = 1 alone; in [0, 1), z = 0 and t =
    label; from 1, z = 1 and t = label - 1. The loss is
    `ce(x, z) + ce(x, t)` (ce the sigmoid cross entropy; no t, no second
    term). Its gradient is 0 where `input` is at or beyond the bounds."""
    dtype = input.dtype

    def const(value):
        return tensor.fill_constant([1], dtype, float(value))

    inside = nn.elementwise_mul(
        _float_mask(control_flow.less_than(input, const(soft_max_up_bound)), dtype),
        _float_mask(control_flow.greater_than(input, const(soft_max_lower_bound)), dtype))
    outside = nn.scale(inside, scale=-1.0, bias=1.0)
    # input itself (x * 1 + x * 0), its gradient through the `inside` part only.
    frozen = nn.elementwise_mul(input, outside)
    frozen.stop_gradient = True
    x = nn.elementwise_add(nn.elementwise_mul(input, inside), frozen)
    from_one = _float_mask(control_flow.greater_equal(label, const(1.0)), dtype)
    has_teacher = _float_mask(control_flow.greater_equal(label, const(0.0)), dtype)
    clicked_alone = nn.elementwise_mul(
        _float_mask(control_flow.greater_equal(label, const(-1.0)), dtype),
        nn.scale(has_teacher, scale=-1.0, bias=1.0))
    click = nn.elementwise_add(from_one, clicked_alone)
    teacher = nn.elementwise_sub(label, from_one)
    teacher.stop_gradient = True
    return nn.elementwise_add(
        nn.sigmoid_cross_entropy_with_logits(x, click),
        nn.elementwise_mul(has_teacher, nn.sigmoid_cross_entropy_with_logits(x, teacher)))
