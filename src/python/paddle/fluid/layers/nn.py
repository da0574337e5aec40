"""Neural-network layers (1.x's `layers/nn.py`): each appends the ops
1.x's layer appended, with its names, parameters and attributes; the
outputs' shapes are what the op definitions infer."""
import functools
import warnings

import numpy as np

from .. import core
from ..framework import Variable, convert_dtype, convert_np_dtype_to_dtype_
from ..initializer import Constant, Normal
from ..layer_helper import LayerHelper
from ..param_attr import ParamAttr
from .manipulation import (expand, flatten, gather, pad, reshape, shape, slice, split,  # noqa: F401
                           squeeze, stack, transpose, unsqueeze, unstack)
from .ctc import ctc_greedy_decoder, edit_distance, warpctc  # noqa: F401
# 1.x's nn.py imported these from tensor.py (concat 1.0, assign 1.3,
# fill_constant 1.5, zeros 1.6); scripts reached them as `layers.nn.concat`.
from .tensor import assign, concat, fill_constant, zeros  # noqa: F401
from .. import unique_name  # noqa: F401

__all__ = [
    "fc", "mean", "mul", "matmul", "softmax", "square_error_cost", "cross_entropy",
    "elementwise_add", "elementwise_sub", "elementwise_mul", "elementwise_div",
    "elementwise_max", "elementwise_min", "elementwise_pow", "elementwise_mod",
    "elementwise_floordiv", "scale", "reduce_sum", "reduce_mean", "reduce_max",
    "reduce_min", "reduce_prod", "reduce_all", "reduce_any",
    "embedding", "conv2d", "conv2d_transpose", "pool2d", "batch_norm", "dropout", "layer_norm",
    "l2_normalize", "prelu", "label_smooth", "huber_loss", "pad", "log_loss",
    "cos_sim", "one_hot", "softmax_with_cross_entropy",
    "sigmoid_cross_entropy_with_logits", "sum", "topk",
    "reshape", "stack", "unstack", "expand", "flatten", "transpose", "squeeze", "unsqueeze",
    "split", "slice", "shape", "gather", "gaussian_random", "uniform_random_batch_size_like",
    "gaussian_random_batch_size_like",
    "size", "where", "instance_norm", "group_norm", "adaptive_pool2d", "adaptive_pool3d",
    "conv3d", "pool3d", "conv3d_transpose", "strided_slice", "temporal_shift", "spectral_norm",
    "unique",
    "leaky_relu", "elu", "relu6", "pow", "stanh", "hard_sigmoid", "swish", "brelu",
    "selu", "clip", "linear_chain_crf", "crf_decoding", "chunk_eval",
    "beam_search", "beam_search_decode", "merge_selected_rows", "get_tensor_from_selected_rows",
    "nce", "smooth_l1", "margin_rank_loss", "rank_loss", "lrn", "row_conv", "im2sequence",
    "image_resize", "resize_bilinear", "resize_nearest", "image_resize_short",
    "warpctc", "ctc_greedy_decoder", "edit_distance",
    "mse_loss", "dice_loss", "npair_loss", "rank",
    "scatter", "gather_nd", "multiplex", "crop", "pad2d", "pad_constant_like",
    "maxout", "space_to_depth", "pixel_shuffle", "shuffle_channel", "hsigmoid",
    "hard_swish", "soft_relu", "clip_by_norm", "kldiv_loss", "affine_channel", "expand_as",
    "bpr_loss", "sampling_id", "mean_iou",
    "roi_pool", "roi_align", "data_norm", "unique_with_counts", "center_loss",
    "grid_sampler", "affine_grid", "sequence_scatter", "py_func", "bilinear_tensor_product",
    "scatter_nd_add", "scatter_nd", "shard_index", "add_position_encoding", "hash", "continuous_value_model",
]


def _check_var(x, name, layer):
    if not isinstance(x, Variable):
        raise TypeError("The type of '%s' in %s must be Variable, but received %s"
                        % (name, layer, type(x).__name__))


def fc(input, size, num_flatten_dims=1, param_attr=None, bias_attr=None, act=None,
       is_test=False, name=None):
    """`input × W (+ b)`, then `act`: one `mul` per input, summed."""
    helper = LayerHelper("fc", **locals())
    dtype = helper.input_dtype()
    mul_results = []
    for input_var, p_attr in helper.iter_inputs_and_params():
        if p_attr is False:
            raise ValueError("fc needs a weight; param_attr cannot be False")
        input_shape = input_var.shape
        nfd = num_flatten_dims
        if nfd == -1:
            nfd = len(input_shape) - 1
        fan_in = 1
        for d in input_shape[nfd:]:
            fan_in *= d
        # A dim unknown at build time (-1) gives no weight shape: the
        # Parameter refuses it, as 1.x's did.
        param_shape = [fan_in, size]
        w = helper.create_parameter(attr=p_attr, shape=param_shape, dtype=dtype, is_bias=False)
        tmp = helper.create_variable_for_type_inference(dtype)
        helper.append_op(type="mul", inputs={"X": input_var, "Y": w}, outputs={"Out": tmp},
                         attrs={"x_num_col_dims": nfd, "y_num_col_dims": 1})
        mul_results.append(tmp)
    if len(mul_results) == 1:
        pre_bias = mul_results[0]
    else:
        pre_bias = helper.create_variable_for_type_inference(dtype)
        helper.append_op(type="sum", inputs={"X": mul_results}, outputs={"Out": pre_bias},
                         attrs={"use_mkldnn": False})
    nfd = num_flatten_dims if num_flatten_dims != -1 else len(pre_bias.shape) - 1
    pre_activation = helper.append_bias_op(pre_bias, dim_start=nfd)
    return helper.append_activation(pre_activation)


def mean(x, name=None):
    helper = LayerHelper("mean", **locals())
    _check_var(x, "x", "mean")
    out = helper.create_named_output(name, x.dtype)
    helper.append_op(type="mean", inputs={"X": x}, outputs={"Out": out})
    return out


def mul(x, y, x_num_col_dims=1, y_num_col_dims=1, name=None):
    helper = LayerHelper("mul", **locals())
    out = helper.create_named_output(name, x.dtype)
    helper.append_op(type="mul", inputs={"X": x, "Y": y}, outputs={"Out": out},
                     attrs={"x_num_col_dims": x_num_col_dims, "y_num_col_dims": y_num_col_dims})
    return out


def matmul(x, y, transpose_x=False, transpose_y=False, alpha=1.0, name=None):
    helper = LayerHelper("matmul", **locals())
    out = helper.create_variable_for_type_inference(dtype=x.dtype)
    helper.append_op(type="matmul", inputs={"X": x, "Y": y}, outputs={"Out": out},
                     attrs={"transpose_X": transpose_x, "transpose_Y": transpose_y,
                            "alpha": float(alpha)})
    return out


def softmax(input, use_cudnn=False, name=None, axis=-1):
    """A softmax along `axis`. `use_cudnn` picks Paddle's GPU kernel (the
    same values on the CPU); the op keeps it as its attribute, as 1.x's
    did."""
    helper = LayerHelper("softmax", **locals())
    out = helper.create_variable_for_type_inference(input.dtype)
    helper.append_op(type="softmax", inputs={"X": input}, outputs={"Out": out},
                     attrs={"axis": axis, "use_cudnn": use_cudnn})
    return out


def square_error_cost(input, label):
    helper = LayerHelper("square_error_cost", **locals())
    minus_out = helper.create_variable_for_type_inference(dtype=input.dtype)
    helper.append_op(type="elementwise_sub", inputs={"X": [input], "Y": [label]},
                     outputs={"Out": [minus_out]}, attrs={"axis": -1})
    square_out = helper.create_variable_for_type_inference(dtype=input.dtype)
    helper.append_op(type="square", inputs={"X": [minus_out]}, outputs={"Out": [square_out]})
    return square_out


def cross_entropy(input, label, soft_label=False, ignore_index=-100):
    helper = LayerHelper("cross_entropy", **locals())
    out = helper.create_variable_for_type_inference(dtype=input.dtype)
    helper.append_op(type="cross_entropy", inputs={"X": [input], "Label": [label]},
                     outputs={"Y": [out]},
                     attrs={"soft_label": soft_label, "ignore_index": ignore_index})
    return out


def _elementwise(op_type, x, y, axis=-1, act=None, name=None):
    helper = LayerHelper(op_type, x=x, y=y, axis=axis, act=act, name=name)
    _check_var(x, "x", op_type)
    _check_var(y, "y", op_type)
    out = helper.create_named_output(name, x.dtype)
    helper.append_op(type=op_type, inputs={"X": x, "Y": y}, outputs={"Out": out},
                     attrs={"axis": axis})
    return helper.append_activation(out)


def elementwise_add(x, y, axis=-1, act=None, name=None):
    return _elementwise("elementwise_add", x, y, axis, act, name)


def elementwise_sub(x, y, axis=-1, act=None, name=None):
    return _elementwise("elementwise_sub", x, y, axis, act, name)


def elementwise_mul(x, y, axis=-1, act=None, name=None):
    return _elementwise("elementwise_mul", x, y, axis, act, name)


def elementwise_div(x, y, axis=-1, act=None, name=None):
    return _elementwise("elementwise_div", x, y, axis, act, name)


def elementwise_max(x, y, axis=-1, act=None, name=None):
    return _elementwise("elementwise_max", x, y, axis, act, name)


def elementwise_min(x, y, axis=-1, act=None, name=None):
    return _elementwise("elementwise_min", x, y, axis, act, name)


def elementwise_pow(x, y, axis=-1, act=None, name=None):
    return _elementwise("elementwise_pow", x, y, axis, act, name)


def elementwise_mod(x, y, axis=-1, act=None, name=None):
    return _elementwise("elementwise_mod", x, y, axis, act, name)


def elementwise_floordiv(x, y, axis=-1, act=None, name=None):
    return _elementwise("elementwise_floordiv", x, y, axis, act, name)


def scale(x, scale=1.0, bias=0.0, bias_after_scale=True, act=None, name=None):
    helper = LayerHelper("scale", **locals())
    _check_var(x, "x", "scale")
    out = helper.create_named_output(name, x.dtype)
    helper.append_op(type="scale", inputs={"X": [x]}, outputs={"Out": out},
                     attrs={"scale": float(scale), "bias": float(bias),
                            "bias_after_scale": bias_after_scale})
    return helper.append_activation(out)


def _reduce(op_type, input, dim=None, keep_dim=False, name=None):
    # 1.0-1.5 passed `input` to the op as it came, so the one-Variable list
    # an IfElse returns (`layers.reduce_sum(ie())`) worked.
    if isinstance(input, (list, tuple)) and len(input) == 1:
        input = input[0]
    helper = LayerHelper(op_type, input=input, dim=dim, keep_dim=keep_dim, name=name)
    _check_var(input, "input", op_type)
    if dim is not None and not isinstance(dim, (list, tuple)):
        dim = [dim]
    rank = len(input.shape)
    reduce_all = dim is None or len(dim) == 0 or len(dim) == rank
    out = helper.create_variable_for_type_inference(dtype=input.dtype)
    helper.append_op(type=op_type, inputs={"X": input}, outputs={"Out": out},
                     attrs={"dim": list(dim) if dim else [0], "keep_dim": keep_dim,
                            "reduce_all": reduce_all})
    return out


def reduce_sum(input, dim=None, keep_dim=False, name=None):
    return _reduce("reduce_sum", input, dim, keep_dim, name)


def reduce_mean(input, dim=None, keep_dim=False, name=None):
    return _reduce("reduce_mean", input, dim, keep_dim, name)


def reduce_max(input, dim=None, keep_dim=False, name=None):
    return _reduce("reduce_max", input, dim, keep_dim, name)


def reduce_min(input, dim=None, keep_dim=False, name=None):
    return _reduce("reduce_min", input, dim, keep_dim, name)


def reduce_prod(input, dim=None, keep_dim=False, name=None):
    return _reduce("reduce_prod", input, dim, keep_dim, name)


def reduce_all(input, dim=None, keep_dim=False, name=None):
    return _reduce("reduce_all", input, dim, keep_dim, name)


def reduce_any(input, dim=None, keep_dim=False, name=None):
    return _reduce("reduce_any", input, dim, keep_dim, name)


# ---------------------------------------------------------------- layers with parameters


def _int_list(value, n, name):
    """1.x's `utils.convert_to_list`: an int repeated `n` times, or `n`
    ints in a list, tuple or numpy array. Like 1.x, items may be numpy
    integers (2019 programs computed pool and filter sizes with numpy, e.g.
    PaddleCV/icnet), given back as Python ints so attrs hold plain ints; a
    lone numpy integer is refused as 1.x's `isinstance(value, int)` did."""
    if isinstance(value, int) and not isinstance(value, bool):
        return [value] * n
    items = value
    if isinstance(value, np.ndarray) and value.ndim > 0:
        items = list(value)
    if not isinstance(items, (list, tuple)):
        raise ValueError("The %s's type must be list or tuple. Received: %s" % (name, value))
    if len(items) != n:
        raise ValueError("The %s's length must be %d. Received: %s" % (name, n, value))
    for v in items:
        if not isinstance(v, (int, np.integer)) or isinstance(v, bool):
            raise ValueError("The %s's type must be a list or tuple of %d ints. Received: %s "
                             "including element %r of type %s"
                             % (name, n, value, v, type(v).__name__))
    return [int(v) for v in items]


def _padding_2d(padding, data_format, name):
    """1.x's `_update_padding` for conv2d and pool2d: `[h, w]`, or
    `[top, bottom, left, right]` when they differ, and the padding
    algorithm ('SAME' and 'VALID' pad by the op, 'EXPLICIT' by the list)."""
    if isinstance(padding, str):
        algorithm = padding.upper()
        if algorithm not in ("SAME", "VALID"):
            raise ValueError("Unknown %s: '%s'. It can only be 'SAME' or 'VALID'."
                             % (name, padding))
        return [0, 0], algorithm
    if isinstance(padding, (list, tuple)) and len(padding) == 4:
        if all(isinstance(p, (list, tuple)) for p in padding):
            # Per-dim pairs, the batch and channel dims' own zero.
            pairs = padding[2:4] if data_format == "NCHW" else padding[1:3]
            padding = [p for pair in pairs for p in pair]
        padding = _int_list(padding, 4, name)
        if padding[0] == padding[1] and padding[2] == padding[3]:
            padding = [padding[0], padding[2]]
        return padding, "EXPLICIT"
    return _int_list(padding, 2, name), "EXPLICIT"


def _check_data_format(data_format, layer):
    if data_format not in ("NCHW", "NHWC"):
        raise ValueError("Attr(data_format) of %s should be 'NCHW' or 'NHWC'. Received "
                         "Attr(data_format): %s." % (layer, data_format))


def embedding(input, size, is_sparse=False, is_distributed=False, padding_idx=None,
              param_attr=None, dtype="float32"):
    """The rows of a `size` table (`embedding_N.w_0`) the int64 ids pick:
    a `lookup_table` op, whose ids end in a dim of 1 that the result's
    embedding dim replaces."""
    _check_var(input, "input", "embedding")
    if not isinstance(size, (list, tuple)) or len(size) != 2:
        raise ValueError("embedding's size must be [vocabulary size, embedding size], not %r"
                         % (size,))
    helper = LayerHelper("embedding", **locals())
    if helper.param_attr is False:
        raise ValueError("embedding needs its table; param_attr cannot be False")
    dtype = convert_np_dtype_to_dtype_(dtype)
    remote_prefetch = bool(is_sparse and not is_distributed)
    w = helper.create_parameter(attr=helper.param_attr, shape=size, dtype=dtype, is_bias=False)
    tmp = helper.create_variable_for_type_inference(dtype)
    if padding_idx is None:
        padding_idx = -1
    elif padding_idx < 0:
        padding_idx += size[0]
    helper.append_op(type="lookup_table", inputs={"Ids": input, "W": w}, outputs={"Out": tmp},
                     attrs={"is_sparse": is_sparse, "is_distributed": is_distributed,
                            "remote_prefetch": remote_prefetch, "padding_idx": padding_idx})
    return tmp


def conv2d(input, num_filters, filter_size, stride=1, padding=0, dilation=1, groups=None,
           param_attr=None, bias_attr=None, use_cudnn=True, act=None, name=None,
           data_format="NCHW"):
    """A 2-D convolution: the filter `[num_filters, C / groups, kh, kw]`
    (Normal(0, sqrt(2 / (kh * kw * C))) unless `param_attr` says), then a
    `[num_filters]` bias on the channel axis and `act`."""
    _check_var(input, "input", "conv2d")
    if not isinstance(use_cudnn, bool):
        raise ValueError("Attr(use_cudnn) should be True or False. Received Attr(use_cudnn): %s."
                         % (use_cudnn,))
    _check_data_format(data_format, "conv2d")
    if len(input.shape) != 4:
        raise ValueError("conv2d's input must be 4-D (%s), but its shape is %s"
                         % (data_format, list(input.shape)))
    channel_last = data_format == "NHWC"
    num_channels = input.shape[3 if channel_last else 1]
    if num_channels < 0:
        raise ValueError("The channel dimension of the input(%s) should be defined. Received: %s."
                         % (list(input.shape), num_channels))
    if groups is None:
        num_filter_channels = num_channels
    else:
        if num_channels % groups != 0:
            raise ValueError("the channel of input must be divisible by groups, received: the "
                             "channel of input is %d, the shape of input is %s, the groups is %d"
                             % (num_channels, list(input.shape), groups))
        num_filter_channels = num_channels // groups
    # 1.x builds a depthwise convolution as its own op type.
    l_type = "conv2d"
    if num_channels == groups and num_filters % num_channels == 0 and not use_cudnn:
        l_type = "depthwise_conv2d"
    # Named for its op type, as 1.x's (`depthwise_conv2d_0.w_0`).
    helper = LayerHelper(l_type, **locals())
    if helper.param_attr is False:
        raise ValueError("conv2d needs a filter; param_attr cannot be False")
    filter_size = _int_list(filter_size, 2, "filter_size")
    stride = _int_list(stride, 2, "stride")
    dilation = _int_list(dilation, 2, "dilation")
    padding, padding_algorithm = _padding_2d(padding, data_format, "padding")
    dtype = helper.input_dtype()
    std = (2.0 / (filter_size[0] * filter_size[1] * num_channels)) ** 0.5
    filter_param = helper.create_parameter(
        attr=helper.param_attr, shape=[num_filters, num_filter_channels] + filter_size,
        dtype=dtype, default_initializer=Normal(0.0, std, 0))
    pre_bias = helper.create_variable_for_type_inference(dtype)
    helper.append_op(type=l_type, inputs={"Input": input, "Filter": filter_param},
                     outputs={"Output": pre_bias},
                     attrs={"strides": stride, "paddings": padding, "dilations": dilation,
                            "groups": 1 if groups is None else groups, "use_cudnn": use_cudnn,
                            "use_mkldnn": False, "padding_algorithm": padding_algorithm,
                            "data_format": data_format})
    channel_axis = 3 if channel_last else 1
    pre_act = helper.append_bias_op(pre_bias, dim_start=channel_axis, dim_end=channel_axis + 1)
    return helper.append_activation(pre_act)


def conv2d_transpose(input, num_filters, output_size=None, filter_size=None, padding=0,
                     stride=1, dilation=1, groups=None, param_attr=None, bias_attr=None,
                     use_cudnn=True, act=None, name=None):
    """The transpose of conv2d (a "deconvolution"): the filter `[C,
    num_filters / groups, kh, kw]` (Xavier unless `param_attr` says; its
    size derived from `output_size` when `filter_size` is None), then a
    bias on the channel axis and `act`. Written as 1.2-1.5's layer."""
    assert param_attr is not False, "param_attr should not be False in conv2d_transpose."
    if not isinstance(input, Variable):
        raise TypeError("Input of conv2d_transpose must be Variable")
    input_channel = input.shape[1]
    op_type = "conv2d_transpose"
    if input_channel == groups and num_filters == input_channel and not use_cudnn:
        op_type = "depthwise_conv2d_transpose"
    helper = LayerHelper(op_type, **locals())
    padding = _int_list(padding, 2, "padding")
    stride = _int_list(stride, 2, "stride")
    dilation = _int_list(dilation, 2, "dilation")
    if not isinstance(use_cudnn, bool):
        raise ValueError("use_cudnn should be True or False")
    if filter_size is None:
        if output_size is None:
            raise ValueError("output_size must be set when filter_size is None")
        if isinstance(output_size, int):
            output_size = [output_size, output_size]
        h_in = input.shape[2]
        w_in = input.shape[3]
        filter_size_h = (output_size[0] - (h_in - 1) * stride[0] + 2 * padding[0] - 1) \
            // dilation[0] + 1
        filter_size_w = (output_size[1] - (w_in - 1) * stride[1] + 2 * padding[1] - 1) \
            // dilation[1] + 1
        filter_size = [filter_size_h, filter_size_w]
    else:
        filter_size = _int_list(filter_size, 2, "conv2d_transpose.filter_size")
    if output_size is None:
        output_size = []
    elif isinstance(output_size, (list, int)):
        output_size = _int_list(output_size, 2, "output_size")
    else:
        raise ValueError("output_size should be list or int")
    groups = 1 if groups is None else groups
    filter_shape = [input_channel, num_filters // groups] + filter_size
    img_filter = helper.create_parameter(dtype=input.dtype, shape=filter_shape,
                                         attr=helper.param_attr)
    pre_bias = helper.create_variable_for_type_inference(dtype=input.dtype)
    helper.append_op(type=op_type, inputs={"Input": [input], "Filter": [img_filter]},
                     outputs={"Output": pre_bias},
                     attrs={"output_size": output_size, "strides": stride, "paddings": padding,
                            "dilations": dilation, "groups": groups, "use_cudnn": use_cudnn})
    pre_act = helper.append_bias_op(pre_bias, dim_start=1, dim_end=2)
    return helper.append_activation(pre_act)


def pool2d(input, pool_size=-1, pool_type="max", pool_stride=1, pool_padding=0,
           global_pooling=False, use_cudnn=True, ceil_mode=False, name=None, exclusive=True,
           data_format="NCHW"):
    """Max or average pooling over `pool_size` windows (the whole map with
    `global_pooling`)."""
    _check_var(input, "input", "pool2d")
    if pool_type not in ("max", "avg"):
        raise ValueError("Unknown Attr(pool_type): '%s'. It can only be 'max' or 'avg'."
                         % (pool_type,))
    if global_pooling is False and pool_size == -1:
        raise ValueError("When Attr(global_pooling) is False, Attr(pool_size) must be passed "
                         "and be a valid value. Received pool_size: %s" % (pool_size,))
    if not isinstance(use_cudnn, bool):
        raise ValueError("Attr(use_cudnn) should be True or False. Received Attr(use_cudnn): %s."
                         % (use_cudnn,))
    _check_data_format(data_format, "pool2d")
    pool_size = _int_list(pool_size, 2, "pool_size")
    pool_stride = _int_list(pool_stride, 2, "pool_stride")
    pool_padding, padding_algorithm = _padding_2d(pool_padding, data_format, "pool_padding")
    if padding_algorithm == "VALID" and ceil_mode:
        raise ValueError('When Attr(pool_padding) is "VALID", Attr(ceil_mode) must be False. '
                         "Received ceil_mode: True.")
    helper = LayerHelper("pool2d", **locals())
    pool_out = helper.create_variable_for_type_inference(helper.input_dtype())
    helper.append_op(type="pool2d", inputs={"X": input}, outputs={"Out": pool_out},
                     attrs={"pooling_type": pool_type, "ksize": pool_size,
                            "global_pooling": global_pooling, "strides": pool_stride,
                            "paddings": pool_padding, "padding_algorithm": padding_algorithm,
                            "use_cudnn": use_cudnn, "ceil_mode": ceil_mode, "use_mkldnn": False,
                            "exclusive": exclusive, "data_format": data_format})
    return pool_out


def adaptive_pool2d(input, pool_size, pool_type="max", require_index=False, name=None):
    """1.6's: pooling to a `pool_size` output whatever the input's size,
    each output cell over `floor(i H / OH)` to `ceil((i + 1) H / OH)`.
    Max pooling is 1.6's `max_pool2d_with_index` (which also gives each
    max's position, returned with `require_index`); average pooling is
    `pool2d` with `adaptive`."""
    return _adaptive_pool(input, pool_size, pool_type, require_index, 2, locals())


def adaptive_pool3d(input, pool_size, pool_type="max", require_index=False, name=None):
    """1.6's: `adaptive_pool2d` over NCDHW volumes, each output cell over
    `floor(i D / OD)` to `ceil((i + 1) D / OD)` in each dim; max pooling
    is `max_pool3d_with_index` (each max's position `(z H + y) W + x`
    returned with `require_index`), average pooling `pool3d` with
    `adaptive`."""
    return _adaptive_pool(input, pool_size, pool_type, require_index, 3, locals())


def _adaptive_pool(input, pool_size, pool_type, require_index, dims, args):
    if pool_type not in ["max", "avg"]:
        raise ValueError("Unknown pool_type: '%s'. It can only be 'max' or 'avg'.",
                         str(pool_type))
    if pool_type == "avg" and require_index:
        raise ValueError("invalid setting 'require_index' true when 'pool_type' is 'avg'.")
    pool_size = _int_list(pool_size, dims, "pool_size")
    l_type = ("max_pool%dd_with_index" % dims) if pool_type == "max" else ("pool%dd" % dims)
    helper = LayerHelper(l_type, **args)
    dtype = helper.input_dtype()
    pool_out = helper.create_variable_for_type_inference(dtype)
    outputs = {"Out": pool_out}
    if pool_type == "max":
        mask = helper.create_variable_for_type_inference(dtype)
        outputs["Mask"] = mask
    helper.append_op(type=l_type, inputs={"X": input}, outputs=outputs,
                     attrs={"pooling_type": pool_type, "ksize": pool_size, "adaptive": True})
    return (pool_out, mask) if require_index else pool_out


def _padding_3d(padding, data_format, name):
    """1.6's `_update_padding` of the 3-D layers: 5 per-dim pairs (the
    batch and channel dims' zero) or 6 values stay 6, else 3 values."""
    if isinstance(padding, (list, tuple)) and len(padding) == 5:
        if isinstance(padding[0], (list, tuple)):
            zeros = (0, 1) if data_format == "NCDHW" else (0, 4)
            if not all(list(padding[i]) == [0, 0] for i in zeros):
                raise ValueError("Non-zero %s(%s) in the batch or channel dimensions is not "
                                 "supported." % (name, padding))
            pairs = padding[2:5] if data_format == "NCDHW" else padding[1:4]
            padding = [p for pair in pairs for p in pair]
        return _int_list(padding, 6, "padding")
    if isinstance(padding, (list, tuple)) and len(padding) == 6:
        return _int_list(padding, 6, "padding")
    return _int_list(padding, 3, "padding")


def _padding_algorithm_3d(padding, name):
    """'SAME' and 'VALID' (any case) pad by the op; a list by itself."""
    if not isinstance(padding, str):
        return padding, "EXPLICIT"
    algorithm = padding.upper()
    if algorithm not in ("SAME", "VALID"):
        raise ValueError("Unknown %s: '%s'. It can only be 'SAME' or 'VALID'." % (name, padding))
    return [0, 0, 0, 0, 0, 0], algorithm


def _check_data_format_3d(data_format):
    if data_format not in ("NCDHW", "NDHWC"):
        raise ValueError("Attr(data_format) should be 'NCDHW' or 'NDHWC'. Received "
                         "Attr(data_format): %s." % (data_format,))


def conv3d(input, num_filters, filter_size, stride=1, padding=0, dilation=1, groups=None,
           param_attr=None, bias_attr=None, use_cudnn=True, act=None, name=None,
           data_format="NCDHW"):
    """A 3-D convolution (1.x's): the filter `[num_filters, C / groups, kd,
    kh, kw]` (Normal(0, sqrt(2 / (kd * kh * kw * C))) unless `param_attr`
    says), a `[num_filters]` bias on the channel axis, then `act`."""
    helper = LayerHelper("conv3d", **locals())
    dtype = helper.input_dtype()
    if not isinstance(use_cudnn, bool):
        raise ValueError("Attr(use_cudnn) should be True or False. Received Attr(use_cudnn): %s. "
                         % (use_cudnn,))
    _check_data_format_3d(data_format)
    channel_last = data_format == "NDHWC"
    num_channels = input.shape[4] if channel_last else input.shape[1]
    if num_channels < 0:
        raise ValueError("The channel dimmention of the input(%s) should be defined. "
                         "Received: %s." % (list(input.shape), num_channels))
    if groups is None:
        num_filter_channels = num_channels
    else:
        if num_channels % groups != 0:
            raise ValueError("The number of input channels must be divisible by Attr(groups). "
                             "Received: number of channels(%s), groups(%s)."
                             % (num_channels, groups))
        num_filter_channels = num_channels // groups
    filter_size = _int_list(filter_size, 3, "filter_size")
    stride = _int_list(stride, 3, "stride")
    dilation = _int_list(dilation, 3, "dilation")
    padding, padding_algorithm = _padding_algorithm_3d(padding, "padding")
    padding = _padding_3d(padding, data_format, "padding")
    if len(padding) == 3:
        padding = [padding[0], padding[0], padding[1], padding[1], padding[2], padding[2]]
    std = (2.0 / (filter_size[0] * filter_size[1] * filter_size[2] * num_channels)) ** 0.5
    filter_param = helper.create_parameter(
        attr=helper.param_attr, shape=[num_filters, num_filter_channels] + filter_size,
        dtype=dtype, default_initializer=Normal(0.0, std, 0))
    pre_bias = helper.create_variable_for_type_inference(dtype)
    helper.append_op(type="conv3d", inputs={"Input": input, "Filter": filter_param},
                     outputs={"Output": pre_bias},
                     attrs={"strides": stride, "paddings": padding, "dilations": dilation,
                            "groups": groups, "use_cudnn": use_cudnn, "use_mkldnn": False,
                            "padding_algorithm": padding_algorithm, "data_format": data_format})
    axis = 4 if channel_last else 1
    pre_act = helper.append_bias_op(pre_bias, dim_start=axis, dim_end=axis + 1)
    return helper.append_activation(pre_act)


def pool3d(input, pool_size=-1, pool_type="max", pool_stride=1, pool_padding=0,
           global_pooling=False, use_cudnn=True, ceil_mode=False, name=None, exclusive=True,
           data_format="NCDHW"):
    """Max or average pooling over `pool_size` 3-D windows (the whole
    volume with `global_pooling`)."""
    if pool_type not in ["max", "avg"]:
        raise ValueError("Unknown Attr(pool_type): '%s'. It can only be 'max' or 'avg'.",
                         str(pool_type))
    if global_pooling is False and pool_size == -1:
        raise ValueError("When Attr(global_pooling) is False, Attr(pool_size) must be passed "
                         "and be a valid value. Received Attr(pool_size): %s." % (pool_size,))
    if not isinstance(use_cudnn, bool):
        raise ValueError("Attr(use_cudnn) should be True or False. Received Attr(use_cudnn): %s. "
                         % (use_cudnn,))
    if data_format not in ["NCDHW", "NDHWC"]:
        raise ValueError("Attr(data_format) should be 'NCDHW' or 'NDHWC'. Received "
                         "Attr(data_format): %s" % (data_format,))
    pool_size = _int_list(pool_size, 3, "pool_size")
    pool_stride = _int_list(pool_stride, 3, "pool_stride")
    pool_padding, padding_algorithm = _padding_algorithm_3d(pool_padding, "Attr(pool_padding)")
    if padding_algorithm == "VALID" and ceil_mode is not False:
        raise ValueError('When Attr(pool_padding) is "VALID", ceil_mode must be False. '
                         "Received ceil_mode: True.")
    pool_padding = _padding_3d(pool_padding, data_format, "pool_padding")
    helper = LayerHelper("pool3d", **locals())
    pool_out = helper.create_variable_for_type_inference(helper.input_dtype())
    helper.append_op(type="pool3d", inputs={"X": input}, outputs={"Out": pool_out},
                     attrs={"pooling_type": pool_type, "ksize": pool_size,
                            "global_pooling": global_pooling, "strides": pool_stride,
                            "paddings": pool_padding, "padding_algorithm": padding_algorithm,
                            "use_cudnn": use_cudnn, "ceil_mode": ceil_mode, "use_mkldnn": False,
                            "exclusive": exclusive, "data_format": data_format})
    return pool_out


def conv3d_transpose(input, num_filters, output_size=None, filter_size=None, padding=0,
                     stride=1, dilation=1, groups=None, param_attr=None, bias_attr=None,
                     use_cudnn=True, act=None, name=None, data_format="NCDHW"):
    """The transpose of conv3d: the filter `[C, num_filters / groups, kd,
    kh, kw]` (Xavier unless `param_attr` says; its size derived from
    `output_size` when `filter_size` is None), a bias on the channel axis,
    then `act`."""
    assert param_attr is not False, "param_attr should not be False in conv3d_transpose."
    if data_format not in ["NCDHW", "NDHWC"]:
        raise ValueError("Param(data_format) of Op(fluid.layers.conv3d_transpose) got wrong "
                         "value: received " + data_format + " but only NCDHW or NDHWC "
                         "supported.")
    helper = LayerHelper("conv3d_transpose", **locals())
    if not isinstance(input, Variable):
        raise TypeError("Input of conv3d_transpose must be Variable")
    channel_last = data_format == "NDHWC"
    input_channel = input.shape[-1] if channel_last else input.shape[1]
    stride = _int_list(stride, 3, "stride")
    dilation = _int_list(dilation, 3, "dilation")
    if not isinstance(use_cudnn, bool):
        raise ValueError("use_cudnn should be True or False")
    padding, padding_algorithm = _padding_algorithm_3d(padding, "padding")
    padding = _padding_3d(padding, data_format, "padding")
    if len(padding) == 3:
        padding = [padding[0], padding[0], padding[1], padding[1], padding[2], padding[2]]
    if filter_size is None:
        if output_size is None:
            raise ValueError("output_size must be set when filter_size is None")
        if isinstance(output_size, int):
            output_size = [output_size, output_size]
        spatial = input.shape[1:4] if channel_last else input.shape[2:5]
        filter_size = [(output_size[i] - (spatial[i] - 1) * stride[i] + padding[2 * i]
                        + padding[2 * i + 1] - 1) // dilation[i] + 1 for i in range(3)]
    else:
        filter_size = _int_list(filter_size, 3, "conv3d_transpose.filter_size")
    groups = 1 if groups is None else groups
    img_filter = helper.create_parameter(
        dtype=input.dtype, shape=[input_channel, num_filters // groups] + filter_size,
        attr=helper.param_attr)
    pre_bias = helper.create_variable_for_type_inference(dtype=input.dtype)
    helper.append_op(type="conv3d_transpose", inputs={"Input": [input], "Filter": [img_filter]},
                     outputs={"Output": pre_bias},
                     attrs={"strides": stride, "paddings": padding,
                            "padding_algorithm": padding_algorithm, "dilations": dilation,
                            "groups": groups, "use_cudnn": use_cudnn,
                            "data_format": "NHWC" if channel_last else "NCHW"})
    axis = 4 if channel_last else 1
    pre_act = helper.append_bias_op(pre_bias, dim_start=axis, dim_end=axis + 1)
    return helper.append_activation(pre_act)


def strided_slice(input, axes, starts, ends, strides):
    """1.6's: `input[starts[i]:ends[i]:strides[i]]` along each of `axes`
    (Paddle 1.x's kernel: a negative stride takes its elements counted
    from the end bound). Starts, ends and strides given as Variables
    (1.6's tensor inputs) are not supported."""
    if not isinstance(starts, (list, tuple, Variable)):
        raise ValueError("Input starts must be an Variable, python list or tuple.")
    if not isinstance(ends, (list, tuple, Variable)):
        raise ValueError("Input ends must be an Variable, python list or tuple.")
    if not isinstance(strides, (list, tuple, Variable)):
        raise ValueError("Input strides must be an Variable, python list or tuple.")
    for what, value in (("starts", starts), ("ends", ends), ("strides", strides)):
        if isinstance(value, Variable) or any(isinstance(v, Variable) for v in value):
            raise NotImplementedError("strided_slice with Variable %s is not supported by "
                                      "fluidc; give them as ints" % what)
    helper = LayerHelper("strided_slice", **locals())
    out = helper.create_variable_for_type_inference(dtype=helper.input_dtype("input"))
    helper.append_op(type="strided_slice", inputs={"Input": input}, outputs={"Out": out},
                     attrs={"axes": axes, "starts": starts, "ends": ends, "strides": strides,
                            "infer_flags": [1] * len(axes)})
    return out


def temporal_shift(x, seg_num, shift_ratio=0.25, name=None):
    """1.x's TSM shift: `x` is `[N * seg_num, C, H, W]`; in each clip the
    first `C * shift_ratio` channels take the previous frame's values, the
    next `C * shift_ratio` the next frame's (zeros past the ends)."""
    helper = LayerHelper("temporal_shift", **locals())
    out = helper.create_variable_for_type_inference(dtype=x.dtype)
    if not isinstance(seg_num, int):
        raise TypeError("seg_num must be int type.")
    helper.append_op(type="temporal_shift", inputs={"X": x}, outputs={"Out": out},
                     attrs={"seg_num": seg_num, "shift_ratio": shift_ratio})
    return out


def spectral_norm(weight, dim=0, power_iters=1, eps=1e-12, name=None):
    """1.x's: `weight` divided by its largest singular value, estimated by
    `power_iters` rounds of power iteration from the parameters `u`
    (`[weight.shape[dim]]`) and `v` (the product of the other dims), both
    Normal(0, 1) and not trained."""
    helper = LayerHelper("spectral_norm", **locals())
    dtype = weight.dtype
    inputs = {"Weight": weight}
    input_shape = weight.shape
    h = input_shape[dim]
    w = np.prod(input_shape) // h
    u = helper.create_parameter(attr=ParamAttr(), shape=[h], dtype=dtype,
                                default_initializer=Normal(0., 1.))
    u.stop_gradient = True
    inputs["U"] = u
    v = helper.create_parameter(attr=ParamAttr(), shape=[w], dtype=dtype,
                                default_initializer=Normal(0., 1.))
    inputs["V"] = v
    v.stop_gradient = True
    out = helper.create_variable(dtype=dtype)
    helper.append_op(type="spectral_norm", inputs=inputs, outputs={"Out": out},
                     attrs={"dim": dim, "power_iters": power_iters, "eps": eps})
    return out


def unique(x, dtype="int32"):
    """1.6's: the distinct values of the vector `x` in the order they first
    appear, and for each value of `x` its place among them (`dtype`)."""
    helper = LayerHelper("unique", **locals())
    out = helper.create_variable_for_type_inference(dtype=x.dtype)
    index = helper.create_variable_for_type_inference(dtype)
    helper.append_op(type="unique", inputs={"X": x},
                     attrs={"dtype": convert_np_dtype_to_dtype_(dtype)},
                     outputs={"Out": [out], "Index": [index]})
    return out, index


def unique_with_counts(x, dtype="int32"):
    """1.6's: as `unique`, and how many times each distinct value occurs
    (`dtype`, int32 or int64)."""
    if not (dtype == 'int32' or dtype == 'int64'):
        raise TypeError("Op unique_with_counts, index dtype must be int32 or int64")
    if x is None or len(x.shape) != 1:
        raise ValueError("Op unique_with_counts, x must not be null and size of dim must be 1")
    helper = LayerHelper("unique_with_counts", **locals())
    out = helper.create_variable_for_type_inference(dtype=x.dtype)
    index = helper.create_variable_for_type_inference(dtype)
    count = helper.create_variable_for_type_inference(dtype)
    helper.append_op(type='unique_with_counts', inputs={'X': x},
                     attrs={'dtype': convert_np_dtype_to_dtype_(dtype)},
                     outputs={'Out': [out], 'Index': [index], 'Count': [count]})
    return out, index, count


def batch_norm(input, act=None, is_test=False, momentum=0.9, epsilon=1e-05, param_attr=None,
               bias_attr=None, data_layout="NCHW", in_place=False, name=None,
               moving_mean_name=None, moving_variance_name=None,
               do_model_average_for_mean_and_var=True, fuse_with_relu=False,
               use_global_stats=False):
    """Batch normalization per channel: scale `batch_norm_N.w_0` (1) and
    bias `.b_0` (0) trained, the moving mean `.w_1` (0) and variance `.w_2`
    (1) updated by the op in place (MeanOut, VarianceOut). `fuse_with_relu`
    (1.0-1.5) fused a relu only in 1.x's MKL-DNN kernel; its CPU kernel,
    and fluidc, apply none (a warning says so)."""
    helper = LayerHelper("batch_norm", **locals())
    _check_var(input, "input", "batch_norm")
    if fuse_with_relu:
        warnings.warn("batch_norm(fuse_with_relu=True): Paddle 1.x fused the relu only in its "
                      "MKL-DNN kernel; on CPU, as there, no relu is applied (use act='relu')")
    if in_place:
        raise NotImplementedError(
            "batch_norm(in_place=True) writes its result over its input, which fluidc cannot "
            "build; use in_place=False (the default): the same result in a new variable")
    if helper.param_attr is False:
        raise ValueError("batch_norm needs a scale; param_attr cannot be False")
    if helper.bias_attr is False:
        raise ValueError("bias_attr should not be False in batch_norm.")
    input_shape = input.shape
    if len(input_shape) < 2:
        raise ValueError("batch_norm's input needs a channel dimension, but its shape is %s"
                         % list(input_shape))
    channel_num = input_shape[1] if data_layout == "NCHW" else input_shape[-1]
    dtype = helper.input_dtype()
    if dtype == core.VarDesc.VarType.FP16:
        dtype = core.VarDesc.VarType.FP32
    param_shape = [channel_num]
    scale = helper.create_parameter(attr=helper.param_attr, shape=param_shape, dtype=dtype,
                                    default_initializer=Constant(1.0))
    bias = helper.create_parameter(attr=helper.bias_attr, shape=param_shape, dtype=dtype,
                                   is_bias=True)
    mean = helper.create_parameter(
        attr=ParamAttr(name=moving_mean_name, initializer=Constant(0.0), trainable=False,
                       do_model_average=do_model_average_for_mean_and_var),
        shape=param_shape, dtype=dtype)
    variance = helper.create_parameter(
        attr=ParamAttr(name=moving_variance_name, initializer=Constant(1.0), trainable=False,
                       do_model_average=do_model_average_for_mean_and_var),
        shape=param_shape, dtype=dtype)
    saved_mean = helper.create_variable_for_type_inference(dtype=dtype, stop_gradient=True)
    saved_variance = helper.create_variable_for_type_inference(dtype=dtype, stop_gradient=True)
    out = helper.create_variable_for_type_inference(input.dtype)
    outputs = {"Y": out, "MeanOut": mean, "VarianceOut": variance,
               "SavedMean": saved_mean, "SavedVariance": saved_variance}
    if not is_test:
        # Paddle 3's CPU kernel needs ReserveSpace when training (1.x made
        # it for cuDNN only). Named after Y rather than drawn from the
        # layer's tmp counter, so the activation after it keeps its 1.x
        # name (`batch_norm_0.tmp_3`).
        outputs["ReserveSpace"] = helper.create_variable(
            name=out.name + ".reserve_space", dtype=input.dtype, stop_gradient=True)
    inputs = {"X": input, "Scale": scale, "Bias": bias, "Mean": mean, "Variance": variance}
    attrs = {"epsilon": epsilon, "is_test": is_test, "data_layout": data_layout,
             "use_mkldnn": False, "fuse_with_relu": False, "use_global_stats": use_global_stats}
    if isinstance(momentum, Variable):
        inputs["MomentumTensor"] = momentum
    else:
        attrs["momentum"] = momentum
    helper.append_op(type="batch_norm", inputs=inputs, outputs=outputs, attrs=attrs)
    return helper.append_activation(out)


def lrn(input, n=5, k=1.0, alpha=1e-4, beta=0.75, name=None):
    """Local response normalization across channels (AlexNet):
    `x / (k + alpha * sum of x^2 over the n channels around it)^beta`,
    for an NCHW input; MidOut holds the bracket."""
    helper = LayerHelper("lrn", **locals())
    dtype = helper.input_dtype()
    input_shape = input.shape
    dims = len(input_shape)
    if dims != 4:
        raise ValueError(
            "dims of input must be 4(not %d), and it's order must be NCHW" % (dims))
    mid_out = helper.create_variable_for_type_inference(dtype=dtype, stop_gradient=True)
    lrn_out = helper.create_variable_for_type_inference(dtype)
    helper.append_op(type="lrn", inputs={"X": input},
                     outputs={"Out": lrn_out, "MidOut": mid_out},
                     attrs={"n": n, "k": k, "alpha": alpha, "beta": beta})
    return lrn_out


def im2sequence(input, filter_size=1, stride=1, padding=0, input_image_size=None,
                out_stride=1, name=None):
    """Image patches to sequences (1.x's layer, OCR's CRNN): each NCHW
    image's `filter_size` patches, one row of `C * kh * kw` per patch, a
    sequence per image. `padding` is 1, 2 or 4 ints (up, left, down,
    right); `input_image_size` ([N, 2] real heights and widths) with
    `out_stride` keeps each image's patches within its real size."""
    if isinstance(filter_size, int):
        filter_size = [filter_size, filter_size]
    if isinstance(stride, int):
        stride = [stride, stride]
    if isinstance(padding, int):
        padding = [padding, padding]
    if len(padding) == 2:
        padding.append(padding[0])
        padding.append(padding[1])
    inputs = {"X": input}
    attrs = {"kernels": filter_size, "strides": stride, "paddings": padding}
    if input_image_size is not None:
        if isinstance(out_stride, int):
            out_stride = [out_stride, out_stride]
        inputs["Y"] = input_image_size
        attrs["out_stride"] = out_stride
    helper = LayerHelper('im2sequence', **locals())
    out = helper.create_variable_for_type_inference(dtype=helper.input_dtype())
    helper.append_op(type='im2sequence', inputs=inputs, outputs={'Out': out}, attrs=attrs)
    return out


def row_conv(input, future_context_size, param_attr=None, act=None):
    """DeepSpeech2's lookahead (row) convolution (1.x's layer): each step
    of a sequence mixed with the `future_context_size` steps after it,
    elementwise by a `[future_context_size + 1, width]` filter."""
    helper = LayerHelper('row_conv', **locals())
    dtype = helper.input_dtype()
    filter_shape = [future_context_size + 1, input.shape[1]]
    filter_param = helper.create_parameter(
        attr=helper.param_attr, shape=filter_shape, dtype=dtype)
    out = helper.create_variable_for_type_inference(dtype)
    helper.append_op(type='row_conv', inputs={'X': [input], 'Filter': [filter_param]},
                     outputs={'Out': [out]})
    return helper.append_activation(out)


def image_resize(input, out_shape=None, scale=None, name=None, resample='BILINEAR',
                 actual_shape=None, align_corners=True, align_mode=1):
    """Resizes NCHW images to `out_shape` (h, w) or by `scale`, bilinear or
    nearest (1.4's layer; 1.2's scripts, without align_corners/align_mode,
    get 1.x's defaults). `actual_shape` (an int32 [2] Variable) sets the
    size at run time."""
    resample_methods = {
        'BILINEAR': 'bilinear',
        'NEAREST': 'nearest',
    }
    if resample not in resample_methods:
        raise ValueError(
            "The 'resample' of image_resize can only be 'BILINEAR' or 'NEAREST' currently.")
    resample_type = resample_methods[resample]
    if not isinstance(align_corners, bool):
        raise TypeError("Attr align_corners should be a bool value")
    if align_mode != 0 and align_mode != 1:
        raise ValueError("align_mode can only be 0 or 1")
    if out_shape is None and scale is None:
        raise ValueError("One of out_shape and scale must not be None.")
    helper = LayerHelper('{}_interp'.format(resample_type), **locals())
    dtype = helper.input_dtype()

    def _is_list_or_turple_(data):
        return (isinstance(data, list) or isinstance(data, tuple))

    inputs = {"X": input}
    attrs = {
        "out_h": 0,
        "out_w": 0,
        "interp_method": resample_type,
        "align_corners": align_corners,
        "align_mode": align_mode
    }
    if out_shape is not None:
        if isinstance(out_shape, Variable):
            warnings.warn("out_shape as Variable type is deprecated, \
                    it is recommended to use actual_shape instead of \
                    out_shape to specify output shape dynamically.")
            inputs['OutSize'] = out_shape
        else:
            if not (_is_list_or_turple_(out_shape)):
                raise TypeError("out_shape should be a list or tuple or Variable.")
            if len(out_shape) != 2:
                raise ValueError("out_shape length should be 2.")
            out_shape = list(map(int, out_shape))
            attrs['out_h'] = out_shape[0]
            attrs['out_w'] = out_shape[1]
    else:
        if scale <= 0:
            raise ValueError("scale should be greater than zero.")
        attrs['scale'] = float(scale)
    if isinstance(actual_shape, Variable):
        inputs["OutSize"] = actual_shape
    elif actual_shape is not None:
        raise TypeError("actual_shape should either be Variable or None.")
    out = helper.create_variable_for_type_inference(dtype)
    helper.append_op(type='{}_interp'.format(resample_type), inputs=inputs,
                     outputs={"Out": out}, attrs=attrs)
    return out


def resize_bilinear(input, out_shape=None, scale=None, name=None, actual_shape=None,
                    align_corners=True, align_mode=1):
    """`image_resize` with `resample='BILINEAR'`."""
    return image_resize(input, out_shape, scale, name, 'BILINEAR', actual_shape,
                        align_corners, align_mode)


def resize_nearest(input, out_shape=None, scale=None, name=None, actual_shape=None,
                   align_corners=True):
    """`image_resize` with `resample='NEAREST'`."""
    return image_resize(input, out_shape, scale, name, 'NEAREST', actual_shape,
                        align_corners)


def image_resize_short(input, out_short_len, resample='BILINEAR'):
    """Resizes the shorter side of NCHW images to `out_short_len`, the
    longer one in proportion (rounded)."""
    in_shape = input.shape
    if len(in_shape) != 4:
        raise ValueError(
            "The rank of input must be 4 (num_batches, channels, in_h, in_w).")
    hw = in_shape[2:4]
    short_idx = hw.index(min(hw))
    long_idx = 1 - short_idx
    out_shape = list(hw)
    out_shape[short_idx] = out_short_len
    out_shape[long_idx] = int(
        float(out_shape[long_idx]) * (float(out_short_len) / float(hw[short_idx])) + 0.5)
    return image_resize(input=input, out_shape=out_shape, resample=resample)


def dropout(x, dropout_prob, is_test=False, seed=None, name=None,
            dropout_implementation="downgrade_in_infer"):
    """Zeroes each element with probability `dropout_prob` when training.
    Without a seed, the main program's `random_seed` (if set) fixes it."""
    helper = LayerHelper("dropout", **locals())
    _check_var(x, "x", "dropout")
    out = helper.create_variable_for_type_inference(dtype=x.dtype)
    mask = helper.create_variable_for_type_inference(dtype=core.VarDesc.VarType.UINT8,
                                                     stop_gradient=True)
    if (seed is None or seed == 0) and helper.main_program.random_seed != 0:
        seed = helper.main_program.random_seed
    helper.append_op(type="dropout", inputs={"X": [x]}, outputs={"Out": [out], "Mask": [mask]},
                     attrs={"dropout_prob": dropout_prob, "is_test": is_test,
                            "fix_seed": seed is not None,
                            "seed": seed if seed is not None else 0,
                            "dropout_implementation": dropout_implementation})
    return out


def data_norm(input, act=None, epsilon=1e-05, param_attr=None, data_layout='NCHW',
              in_place=False, name=None, moving_mean_name=None, moving_variance_name=None,
              do_model_average_for_mean_and_var=True):
    """1.x's CTR normalization: `(input - BatchSum / BatchSize) *
    sqrt(BatchSize / BatchSquareSum)` per column, with the three statistics
    trainable parameters named after `name` (which 1.x required); their
    gradients are the batch's own statistics. As in 1.x, the moving_* names
    and do_model_average_for_mean_and_var are not used."""
    helper = LayerHelper('data_norm', **locals())
    dtype = helper.input_dtype()

    input_shape = input.shape
    if data_layout == 'NCHW':
        channel_num = input_shape[1]
    else:
        if data_layout == 'NHWC':
            channel_num = input_shape[-1]
        else:
            raise ValueError("unsupported data layout:" + data_layout)

    param_shape = [channel_num]

    batch_size_default = 1e4
    batch_sum_default = 0.0
    batch_square_sum_default = 1e4

    if param_attr and isinstance(param_attr, dict):
        batch_size_default = param_attr.get("batch_size", 1e4)
        batch_sum_default = param_attr.get("batch_sum", 0.0)
        batch_square_sum_default = param_attr.get("batch_square", 1e4)

    batch_size = helper.create_parameter(
        attr=ParamAttr(name=name + '.batch_size',
                       initializer=Constant(value=float(batch_size_default)), trainable=True),
        shape=param_shape, dtype=input.dtype)
    batch_sum = helper.create_parameter(
        attr=ParamAttr(name=name + '.batch_sum',
                       initializer=Constant(value=float(batch_sum_default)), trainable=True),
        shape=param_shape, dtype=input.dtype)
    batch_square_sum = helper.create_parameter(
        attr=ParamAttr(name=name + '.batch_square_sum',
                       initializer=Constant(value=float(batch_square_sum_default)),
                       trainable=True),
        shape=param_shape, dtype=input.dtype)

    means = helper.create_variable(dtype=dtype, stop_gradient=True)
    scales = helper.create_variable(dtype=dtype, stop_gradient=True)

    data_norm_out = input if in_place else helper.create_variable(dtype=dtype)

    helper.append_op(
        type="data_norm",
        inputs={"X": input, "BatchSize": batch_size, "BatchSum": batch_sum,
                "BatchSquareSum": batch_square_sum},
        outputs={"Y": data_norm_out, "Means": means, "Scales": scales},
        attrs={"epsilon": epsilon})

    return helper.append_activation(data_norm_out)


def layer_norm(input, scale=True, shift=True, begin_norm_axis=1, epsilon=1e-05,
               param_attr=None, bias_attr=None, act=None, name=None):
    """Normalizes over the dims from `begin_norm_axis`: scale
    `layer_norm_N.w_0` (1) and bias `.b_0` of their product's size; Mean
    and Variance (`tmp_0`, `tmp_1`) are made before Y (`tmp_2`)."""
    helper = LayerHelper("layer_norm", **locals())
    _check_var(input, "input", "layer_norm")
    input_shape = list(input.shape)
    if not 1 <= begin_norm_axis < max(len(input_shape), 1):
        raise ValueError("begin_norm_axis is %s; it must be in [1, %d) for input %s"
                         % (begin_norm_axis, len(input_shape), input_shape))
    tail = input_shape[begin_norm_axis:]
    if any(d < 0 for d in tail):
        raise ValueError("layer_norm needs the dims from begin_norm_axis %d known, but input "
                         "is %s" % (begin_norm_axis, input_shape))
    if scale and helper.param_attr is False:
        raise ValueError("layer_norm(scale=True) needs a scale; param_attr cannot be False")
    if shift and helper.bias_attr is False:
        raise ValueError("layer_norm(shift=True) needs a bias; bias_attr cannot be False")
    dtype = helper.input_dtype()
    param_shape = [functools.reduce(lambda a, b: a * b, tail, 1)]
    inputs = {"X": input}
    if scale:
        inputs["Scale"] = helper.create_parameter(attr=helper.param_attr, shape=param_shape,
                                                  dtype=dtype, default_initializer=Constant(1.0))
    if shift:
        inputs["Bias"] = helper.create_parameter(attr=helper.bias_attr, shape=param_shape,
                                                 dtype=dtype, is_bias=True)
    mean_out = helper.create_variable_for_type_inference(dtype=dtype, stop_gradient=True)
    variance_out = helper.create_variable_for_type_inference(dtype=dtype, stop_gradient=True)
    layer_norm_out = helper.create_variable_for_type_inference(dtype)
    helper.append_op(type="layer_norm", inputs=inputs,
                     outputs={"Y": layer_norm_out, "Mean": mean_out, "Variance": variance_out},
                     attrs={"epsilon": epsilon, "begin_norm_axis": begin_norm_axis})
    return helper.append_activation(layer_norm_out)


def prelu(x, mode, param_attr=None, name=None):
    """Leaky relu with a learned slope `prelu_N.w_0` (1): one for all
    (`all`), one per channel (`channel`, `[1, C, 1, 1]`) or one per element
    of a sample (`element`; 1.x wrote x.shape, whose unknown batch dim no
    parameter can have, so the batch dim is 1)."""
    helper = LayerHelper("prelu", **locals())
    _check_var(x, "x", "prelu")
    x_shape = list(x.shape)
    if mode == "all":
        alpha_shape = [1]
    elif mode == "channel" and len(x_shape) >= 2:
        alpha_shape = [1, x_shape[1], 1, 1]
    elif mode == "element" and len(x_shape) >= 2:
        alpha_shape = [1] + x_shape[1:]
    else:
        raise ValueError("prelu's mode is %r; it must be 'all', 'channel' or 'element' (the "
                         "last two for input of rank 2 or more, it is %s)" % (mode, x_shape))
    if helper.param_attr is False:
        raise ValueError("prelu needs its alpha; param_attr cannot be False")
    alpha = helper.create_parameter(attr=helper.param_attr, shape=alpha_shape, dtype="float32",
                                    is_bias=False, default_initializer=Constant(1.0))
    out = helper.create_variable_for_type_inference(x.dtype)
    helper.append_op(type="prelu", inputs={"X": x, "Alpha": alpha}, outputs={"Out": out},
                     attrs={"mode": mode})
    return out


# ---------------------------------------------------------------- normalizing and losses


def l2_normalize(x, axis, epsilon=1e-12, name=None):
    """`x / sqrt(sum(x^2) + epsilon)` along `axis` (a vector along its one
    axis; `None` is axis 1)."""
    _check_var(x, "x", "l2_normalize")
    if len(x.shape) == 1:
        axis = 0
    helper = LayerHelper("l2_normalize", **locals())
    out = helper.create_variable_for_type_inference(dtype=x.dtype)
    norm = helper.create_variable_for_type_inference(dtype=x.dtype)
    helper.append_op(type="norm", inputs={"X": x}, outputs={"Out": out, "Norm": norm},
                     attrs={"axis": 1 if axis is None else axis, "epsilon": epsilon})
    return out


def label_smooth(label, prior_dist=None, epsilon=0.1, dtype="float32", name=None):
    """`(1 - epsilon) * label + epsilon * prior` (uniform without
    `prior_dist`); the labels stop the gradient."""
    _check_var(label, "label", "label_smooth")
    if epsilon > 1.0 or epsilon < 0.0:
        raise ValueError("The value of epsilon must be between 0 and 1, but it is %s" % epsilon)
    if convert_np_dtype_to_dtype_(dtype) != label.dtype:
        raise TypeError("label_smooth's result has the label's dtype, %s; pass dtype='%s' or "
                        "cast the label first" % (convert_dtype(label.dtype),
                                                  convert_dtype(label.dtype)))
    helper = LayerHelper("label_smooth", **locals())
    label.stop_gradient = True
    smooth_label = helper.create_variable_for_type_inference(label.dtype)
    inputs = {"X": label}
    if prior_dist is not None:
        inputs["PriorDist"] = prior_dist
    helper.append_op(type="label_smooth", inputs=inputs, outputs={"Out": smooth_label},
                     attrs={"epsilon": float(epsilon)})
    return smooth_label


def huber_loss(input, label, delta):
    """Squared error within `delta` of the label, linear beyond."""
    helper = LayerHelper("huber_loss", **locals())
    _check_var(input, "input", "huber_loss")
    _check_var(label, "label", "huber_loss")
    residual = helper.create_variable_for_type_inference(dtype=input.dtype)
    out = helper.create_variable_for_type_inference(dtype=input.dtype)
    helper.append_op(type="huber_loss", inputs={"X": input, "Y": label},
                     outputs={"Out": out, "Residual": residual}, attrs={"delta": delta})
    return out


def log_loss(input, label, epsilon=1e-4, name=None):
    """The negative log likelihood of probabilities `input` for 0/1 labels
    (`epsilon` keeps the logs finite)."""
    helper = LayerHelper("log_loss", **locals())
    _check_var(input, "input", "log_loss")
    _check_var(label, "label", "log_loss")
    loss = helper.create_variable_for_type_inference(dtype=input.dtype)
    helper.append_op(type="log_loss", inputs={"Predicted": [input], "Labels": [label]},
                     outputs={"Loss": [loss]}, attrs={"epsilon": epsilon})
    return loss


def smooth_l1(x, y, inside_weight=None, outside_weight=None, sigma=None):
    """Per row `[N, 1]`, the sum of the smooth L1 loss of `(x - y) *
    inside_weight` (quadratic within `1 / sigma**2`, linear beyond), each
    element times `outside_weight`; the weights go together."""
    helper = LayerHelper("smooth_l1_loss", **locals())
    diff = helper.create_variable_for_type_inference(dtype=x.dtype)
    loss = helper.create_variable_for_type_inference(dtype=x.dtype)
    inputs = {"X": x, "Y": y}
    if inside_weight is not None:
        inputs["InsideWeight"] = inside_weight
    if outside_weight is not None:
        inputs["OutsideWeight"] = outside_weight
    helper.append_op(type="smooth_l1_loss", inputs=inputs,
                     outputs={"Diff": diff, "Out": loss},
                     attrs={"sigma": sigma if sigma is not None else 1.0})
    return loss


def margin_rank_loss(label, left, right, margin=0.1, name=None):
    """`max(0, -label * (left - right) + margin)` for scores `[N, 1]` and
    labels +1 (left ranks higher) or -1."""
    helper = LayerHelper("margin_rank_loss", **locals())
    if not isinstance(label, Variable):
        raise ValueError("The label should be a Variable.")
    if not isinstance(left, Variable):
        raise ValueError("The left should be a Variable.")
    if not isinstance(right, Variable):
        raise ValueError("The right should be a Variable.")
    out = helper.create_variable_for_type_inference(left.dtype)
    act = helper.create_variable_for_type_inference(left.dtype)
    helper.append_op(type="margin_rank_loss",
                     inputs={"Label": label, "X1": left, "X2": right},
                     outputs={"Out": out, "Activated": act},
                     attrs={"margin": margin})
    return out


def rank_loss(label, left, right, name=None):
    """RankNet's cost `log(1 + exp(left - right)) - label * (left - right)`
    for scores `[N, 1]` and labels in {0, 0.5, 1}."""
    helper = LayerHelper("rank_loss", **locals())
    if not isinstance(label, Variable):
        raise ValueError("The label should be a Variable")
    if not isinstance(left, Variable):
        raise ValueError("The left should be a Variable")
    if not isinstance(right, Variable):
        raise ValueError("The right should be a Variable")
    out = helper.create_variable_for_type_inference("float32")
    helper.append_op(type="rank_loss",
                     inputs={"Label": label, "Left": left, "Right": right},
                     outputs={"Out": out})
    return out


def _alias_tables(dist):
    """Walker's alias tables of the probabilities `dist` (1.2's layer's
    construction, ties within 1e-4): each class's probability of keeping
    its own draw and the class it passes the rest to (-1 for none)."""
    n = len(dist)
    alias_probs = [0] * n
    alias = [0] * n
    bigs = []
    littles = []
    for i in range(n):
        scaled = dist[i] * n
        if scaled - 1.0 > 1e-4:
            bigs.append((i, scaled))
        elif 1.0 - scaled > 1e-4:
            littles.append((i, scaled))
        else:
            alias_probs[i] = scaled
            alias[i] = -1
    while bigs and littles:
        big = bigs.pop(0)
        little = littles.pop(0)
        alias_probs[little[0]] = little[1]
        alias[little[0]] = big[0]
        left = big[1] + little[1] - 1
        if left - 1.0 > 1e-4:
            bigs.append((big[0], left))
        elif 1.0 - left > 1e-4:
            littles.append((big[0], left))
        else:
            alias_probs[big[0]] = left
            alias[big[0]] = -1
    for rest in (bigs, littles):
        if rest:
            alias_probs[rest[0][0]] = 1.0
            alias[rest[0][0]] = -1
    return alias_probs, alias


def nce(input, label, num_total_classes, sample_weight=None, param_attr=None,
        bias_attr=None, num_neg_samples=None, name=None, sampler="uniform",
        custom_dist=None, seed=0, is_sparse=False):
    """The noise-contrastive estimation loss of each row of `input` for its
    `label` classes against `num_neg_samples` (10) negative classes drawn
    by `sampler` ("uniform", "log_uniform" or "custom_dist" with the
    probabilities `custom_dist`): an `nce` op with the weight
    `[num_total_classes, dim]` and the bias `[num_total_classes, 1]`,
    its cost divided by `num_neg_samples + 1` (1.2's layer)."""
    from .tensor import assign
    helper = LayerHelper("nce", **locals())
    assert isinstance(input, Variable)
    assert isinstance(label, Variable)
    dim = input.shape[1]
    w = helper.create_parameter(attr=helper.param_attr, shape=[num_total_classes, dim],
                                is_bias=False, dtype=input.dtype)
    inputs = {}
    if helper.bias_attr:
        b = helper.create_parameter(attr=helper.bias_attr, shape=[num_total_classes, 1],
                                    is_bias=True, dtype=input.dtype)
        inputs["Bias"] = b
    cost = helper.create_variable_for_type_inference(dtype=input.dtype)
    sample_logits = helper.create_variable_for_type_inference(dtype=input.dtype)
    sample_labels = helper.create_variable_for_type_inference(dtype=label.dtype)
    inputs["Input"] = input
    inputs["Label"] = label
    inputs["Weight"] = w
    inputs["SampleWeight"] = sample_weight if sample_weight is not None else []
    if sampler == "uniform":
        sampler = 0
    elif sampler == "log_uniform":
        sampler = 1
    elif sampler == "custom_dist":
        assert custom_dist is not None
        alias_probs, alias = _alias_tables(custom_dist)
        inputs["CustomDistProbs"] = assign(input=np.array(custom_dist).astype("float32"))
        inputs["CustomDistAlias"] = assign(input=np.array(alias).astype("int32"))
        inputs["CustomDistAliasProbs"] = assign(input=np.array(alias_probs).astype("float32"))
        sampler = 2
    else:
        raise Exception("Unsupported sampler type.")
    if num_neg_samples is None:
        num_neg_samples = 10
    else:
        num_neg_samples = int(num_neg_samples)
    attrs = {"num_total_classes": int(num_total_classes), "num_neg_samples": num_neg_samples,
             "seed": seed, "sampler": sampler, "is_sparse": is_sparse}
    helper.append_op(type="nce", inputs=inputs,
                     outputs={"Cost": cost, "SampleLogits": sample_logits,
                              "SampleLabels": sample_labels},
                     attrs=attrs)
    return cost / (num_neg_samples + 1)


def cos_sim(X, Y):
    """The cosine of each row of X with the row of Y (or Y's one row),
    `[N, 1]`; `XNorm` and `YNorm` are the op's own outputs."""
    helper = LayerHelper("cos_sim", **locals())
    _check_var(X, "X", "cos_sim")
    _check_var(Y, "Y", "cos_sim")
    out = helper.create_variable_for_type_inference(dtype=X.dtype)
    xnorm = helper.create_variable_for_type_inference(dtype=X.dtype)
    ynorm = helper.create_variable_for_type_inference(dtype=X.dtype)
    helper.append_op(type="cos_sim", inputs={"X": [X], "Y": [Y]},
                     outputs={"Out": [out], "XNorm": [xnorm], "YNorm": [ynorm]})
    return out


def bilinear_tensor_product(x, y, size, act=None, name=None, param_attr=None, bias_attr=None):
    """`out[b, s] = x[b] W[s] y[b]ᵀ + bias[s]` for `x` `[B, M]` and `y`
    `[B, N]`, as 1.x's layer: the weight `[size, M, N]`, a bias `[1, size]`
    unless `bias_attr` is False, then `act`. A `name` names the output."""
    helper = LayerHelper("bilinear_tensor_product", **locals())
    _check_var(x, "x", "bilinear_tensor_product")
    _check_var(y, "y", "bilinear_tensor_product")
    dtype = helper.input_dtype("x")
    w = helper.create_parameter(attr=helper.param_attr, shape=[size, x.shape[1], y.shape[1]],
                                dtype=dtype, is_bias=False)
    out = helper.create_named_output(name, dtype)
    inputs = {"X": x, "Y": y, "Weight": w}
    if helper.bias_attr:
        inputs["Bias"] = helper.create_parameter(attr=helper.bias_attr, shape=[1, size],
                                                 dtype=dtype, is_bias=True)
    helper.append_op(type="bilinear_tensor_product", inputs=inputs, outputs={"Out": out})
    return helper.append_activation(out)


def one_hot(input, depth, allow_out_of_range=False):
    """Int ids `[..., 1]` to float32 `[..., depth]`, keeping the ids' LoD.
    1.x's `one_hot` op is gone from Paddle 3.3.1, so the last axis is
    squeezed (`one_hot_N.tmp_1`, its XShape `tmp_2`) and `one_hot_v2`
    appends the depth axis: the same result. An id outside `[0, depth)`
    gives a zero row with `allow_out_of_range`. Float ids build, as in
    1.x (whose InferShape checked no dtype), and are refused when the op
    runs."""
    _check_var(input, "input", "one_hot")
    if isinstance(depth, bool) or not isinstance(depth, int):
        raise TypeError("one_hot's depth must be an int, not %s" % type(depth).__name__)
    if depth < 1:
        raise ValueError("one_hot's depth %d must be at least 1 (the number of classes)" % depth)
    shape = list(input.shape)
    if len(shape) < 2 or shape[-1] not in (1, -1):
        raise ValueError("one_hot takes ids of shape [..., 1] (rank 2 or more, the last dim 1), "
                         "and `%s` is %s; reshape it first" % (input.name, shape))
    helper = LayerHelper("one_hot", **locals())
    one_hot_out = helper.create_variable_for_type_inference(dtype="float32")
    ids = helper.create_variable_for_type_inference(dtype=input.dtype)
    ids_shape = helper.create_variable_for_type_inference(dtype=input.dtype)
    helper.append_op(type="squeeze2", inputs={"X": input},
                     outputs={"Out": ids, "XShape": ids_shape}, attrs={"axes": [-1]})
    helper.append_op(type="one_hot_v2", inputs={"X": ids}, outputs={"Out": one_hot_out},
                     attrs={"depth": depth, "allow_out_of_range": allow_out_of_range})
    return one_hot_out


def softmax_with_cross_entropy(logits, label, soft_label=False, ignore_index=-100,
                               numeric_stable_mode=True, return_softmax=False, axis=-1):
    """The cross entropy of `softmax(logits)` and `label` in one op (the
    loss with the class axis reduced to 1); with `return_softmax`, also
    the softmax."""
    helper = LayerHelper("softmax_with_cross_entropy", **locals())
    _check_var(logits, "logits", "softmax_with_cross_entropy")
    _check_var(label, "label", "softmax_with_cross_entropy")
    softmax = helper.create_variable_for_type_inference(dtype=logits.dtype)
    loss = helper.create_variable_for_type_inference(dtype=logits.dtype)
    helper.append_op(type="softmax_with_cross_entropy",
                     inputs={"Logits": logits, "Label": label},
                     outputs={"Softmax": softmax, "Loss": loss},
                     attrs={"soft_label": soft_label, "ignore_index": ignore_index,
                            "numeric_stable_mode": numeric_stable_mode, "axis": axis})
    if return_softmax:
        return loss, softmax
    return loss


def sigmoid_cross_entropy_with_logits(x, label, ignore_index=-100, name=None, normalize=False):
    """The elementwise cross entropy of `sigmoid(x)` and the probabilities
    `label` (into `name` when given)."""
    helper = LayerHelper("sigmoid_cross_entropy_with_logits", **locals())
    _check_var(x, "x", "sigmoid_cross_entropy_with_logits")
    _check_var(label, "label", "sigmoid_cross_entropy_with_logits")
    out = helper.create_named_output(name, x.dtype)
    helper.append_op(type="sigmoid_cross_entropy_with_logits", inputs={"X": x, "Label": label},
                     outputs={"Out": out},
                     attrs={"ignore_index": ignore_index, "normalize": normalize})
    return out


# ---------------------------------------------------------------- sums, picks and draws


def sum(x):
    """The `sum` op of one Variable or a list of them (`sum_N.tmp_0`)."""
    helper = LayerHelper("sum", **locals())
    inputs = [x] if isinstance(x, Variable) else x
    if not isinstance(inputs, (list, tuple)) or not inputs:
        raise ValueError("sum() needs at least one Variable")
    for v in inputs:
        _check_var(v, "x", "sum")
    out = helper.create_variable_for_type_inference(dtype=inputs[0].dtype)
    helper.append_op(type="sum", inputs={"X": list(inputs)}, outputs={"Out": out},
                     attrs={"use_mkldnn": False})
    return out


def topk(input, k, name=None):
    """The `k` largest values along the last axis and their int64
    indices; neither takes a gradient."""
    helper = LayerHelper("top_k", **locals())
    _check_var(input, "input", "topk")
    inputs, attrs = {"X": [input]}, {}
    if isinstance(k, Variable):
        inputs["K"] = [k]
    elif isinstance(k, bool) or not isinstance(k, int):
        raise TypeError("topk's k must be an int or a Variable, not %s" % type(k).__name__)
    elif k < 1:
        raise ValueError("topk needs k >= 1, but k is %d" % k)
    else:
        attrs["k"] = k
    values = helper.create_variable_for_type_inference(dtype=input.dtype)
    indices = helper.create_variable_for_type_inference(dtype="int64")
    helper.append_op(type="top_k", inputs=inputs,
                     outputs={"Out": [values], "Indices": [indices]}, attrs=attrs)
    values.stop_gradient = True
    indices.stop_gradient = True
    return values, indices


def gaussian_random(shape, mean=0.0, std=1.0, seed=0, dtype="float32"):
    """A `shape` tensor of Normal(mean, std) draws (seed 0: a fresh seed per
    run)."""
    helper = LayerHelper("gaussian_random", **locals())
    if not isinstance(shape, (list, tuple)):
        raise TypeError("gaussian_random's shape must be a list or tuple, not %s"
                        % type(shape).__name__)
    dtype = convert_np_dtype_to_dtype_(dtype)
    out = helper.create_variable_for_type_inference(dtype)
    helper.append_op(type="gaussian_random", outputs={"Out": out},
                     attrs={"shape": [int(d) for d in shape], "mean": float(mean),
                            "std": float(std), "seed": seed, "dtype": dtype})
    return out


def uniform_random_batch_size_like(input, shape, dtype="float32", input_dim_idx=0,
                                   output_dim_idx=0, min=-1.0, max=1.0, seed=0):
    """A `shape` tensor of Uniform(min, max) draws whose dim
    `output_dim_idx` is `input`'s dim `input_dim_idx` (the batch size), as
    GAN scripts draw their noise (seed 0: a fresh seed per run)."""
    helper = LayerHelper("uniform_random_batch_size_like", **locals())
    dtype = convert_np_dtype_to_dtype_(dtype)
    out = helper.create_variable_for_type_inference(dtype)
    helper.append_op(
        type="uniform_random_batch_size_like", inputs={"Input": input}, outputs={"Out": out},
        attrs={"shape": [int(d) for d in shape], "input_dim_idx": input_dim_idx,
               "output_dim_idx": output_dim_idx, "min": float(min), "max": float(max),
               "seed": seed, "dtype": dtype})
    return out


def gaussian_random_batch_size_like(input, shape, input_dim_idx=0, output_dim_idx=0, mean=0.0,
                                    std=1.0, seed=0, dtype='float32'):
    """A `shape` tensor of Normal(mean, std) draws whose dim
    `output_dim_idx` is `input`'s dim `input_dim_idx` (the batch size), as
    1.x's VAE and GAN scripts draw their noise (seed 0: a fresh seed per
    run)."""
    helper = LayerHelper('gaussian_random_batch_size_like', **locals())
    out = helper.create_variable_for_type_inference(dtype)
    c_dtype = convert_np_dtype_to_dtype_(dtype)
    helper.append_op(
        type='gaussian_random_batch_size_like', inputs={'Input': input}, outputs={'Out': out},
        attrs={'shape': shape, 'input_dim_idx': input_dim_idx,
               'output_dim_idx': output_dim_idx, 'mean': mean, 'std': std, 'seed': seed,
               'dtype': c_dtype})
    return out


def size(input):
    """1.6's: how many elements `input` has, an int64 `[1]`."""
    helper = LayerHelper("size", **locals())
    out = helper.create_variable_for_type_inference(dtype="int64")
    helper.append_op(type="size", inputs={"Input": input}, outputs={"Out": out})
    return out


def where(condition):
    """1.6's: the int64 coordinates of the true elements of `condition`,
    one row each. 1.6's op was `where`; Paddle 3.3.1 calls it
    `where_index` (its `where` is the three-input select), and fluidc
    writes that, so the program loads there."""
    helper = LayerHelper("where", **locals())
    out = helper.create_variable_for_type_inference(dtype=core.VarDesc.VarType.INT64)
    helper.append_op(type="where_index", inputs={"Condition": condition}, outputs={"Out": [out]})
    return out


def instance_norm(input, epsilon=1e-05, param_attr=None, bias_attr=None, name=None):
    """1.6's: each sample's channel normalized by its own mean and variance
    (`[N, C, ...]`), then scaled (init 1) and shifted (init 0) per channel."""
    assert bias_attr is not False, "bias_attr should not be False in instance_norm."
    helper = LayerHelper("instance_norm", **locals())
    dtype = helper.input_dtype()
    param_shape = [input.shape[1]]
    scale = helper.create_parameter(attr=helper.param_attr, shape=param_shape, dtype=dtype,
                                    default_initializer=Constant(1.0))
    bias = helper.create_parameter(attr=helper.bias_attr, shape=param_shape, dtype=dtype,
                                   is_bias=True, default_initializer=Constant(0.0))
    saved_mean = helper.create_variable_for_type_inference(dtype=dtype, stop_gradient=True)
    saved_variance = helper.create_variable_for_type_inference(dtype=dtype, stop_gradient=True)
    out = helper.create_variable_for_type_inference(dtype)
    helper.append_op(type="instance_norm", inputs={"X": input, "Scale": scale, "Bias": bias},
                     outputs={"Y": out, "SavedMean": saved_mean,
                              "SavedVariance": saved_variance},
                     attrs={"epsilon": epsilon})
    return out


def group_norm(input, groups, epsilon=1e-05, param_attr=None, bias_attr=None, act=None,
               data_layout="NCHW", name=None):
    """1.6's: each sample's groups of channels normalized by their own mean
    and variance. As 1.6's, the scale and the shift are made only when
    `param_attr` / `bias_attr` are given (the defaults, None, make none)."""
    helper = LayerHelper("group_norm", **locals())
    dtype = helper.input_dtype()
    inputs = {"X": input}
    if data_layout != "NCHW" and data_layout != "NHWC":
        raise ValueError(
            "Param(data_layout) of Op(fluid.layers.group_norm) got wrong value: received "
            + data_layout + " but only NCHW or NHWC supported.")
    channel_num = input.shape[1] if data_layout == "NCHW" else input.shape[-1]
    param_shape = [channel_num]
    if param_attr:
        inputs["Scale"] = helper.create_parameter(
            attr=helper.param_attr, shape=param_shape, dtype=dtype,
            default_initializer=Constant(1.0))
    if bias_attr:
        inputs["Bias"] = helper.create_parameter(
            attr=helper.bias_attr, shape=param_shape, dtype=dtype, is_bias=True)
    mean_out = helper.create_variable(dtype=dtype, stop_gradient=True)
    variance_out = helper.create_variable(dtype=dtype, stop_gradient=True)
    out = helper.create_variable(dtype=dtype)
    helper.append_op(type="group_norm", inputs=inputs,
                     outputs={"Y": out, "Mean": mean_out, "Variance": variance_out},
                     attrs={"epsilon": epsilon, "groups": groups, "data_layout": data_layout})
    return helper.append_activation(out)


# ---------------------------------------------------------------- activations with arguments


def _activation(op_type, x, attrs, name, inputs=None):
    """The one-op activation `op_type` of `x` with `attrs`."""
    helper = LayerHelper(op_type, x=x, name=name)
    _check_var(x, "x", op_type)
    out = helper.create_variable_for_type_inference(dtype=x.dtype)
    all_inputs = {"X": x}
    all_inputs.update(inputs or {})
    helper.append_op(type=op_type, inputs=all_inputs, outputs={"Out": out}, attrs=attrs)
    return out


def _fixed_in_paddle3(op_type, arg, value, fixed, instead):
    """relu6's threshold and swish's beta: Paddle 3.3.1's ops fix the value
    1.x's had as an attribute, so only that value can be built."""
    if value != fixed:
        raise NotImplementedError(
            "%s with %s=%s cannot be built: Paddle 3.3.1's %s op fixes %s at %s; %s"
            % (op_type, arg, value, op_type, arg, fixed, instead))


def leaky_relu(x, alpha=0.02, name=None):
    return _activation("leaky_relu", x, {"alpha": alpha}, name)


def elu(x, alpha=1.0, name=None):
    return _activation("elu", x, {"alpha": alpha}, name)


def relu6(x, threshold=6.0, name=None):
    _fixed_in_paddle3("relu6", "threshold", threshold, 6.0,
                      "for another threshold, build fluid.layers.clip(x, 0.0, %s)" % threshold)
    return _activation("relu6", x, {}, name)


def pow(x, factor=1.0, name=None):
    """`x ** factor` (a Variable factor is read when the program runs)."""
    if isinstance(factor, Variable):
        return _activation("pow", x, {}, name, inputs={"FactorTensor": factor})
    return _activation("pow", x, {"factor": factor}, name)


def stanh(x, scale_a=0.67, scale_b=1.7159, name=None):
    return _activation("stanh", x, {"scale_a": scale_a, "scale_b": scale_b}, name)


def hard_sigmoid(x, slope=0.2, offset=0.5, name=None):
    return _activation("hard_sigmoid", x, {"slope": slope, "offset": offset}, name)


def swish(x, beta=1.0, name=None):
    _fixed_in_paddle3("swish", "beta", beta, 1.0,
                      "for another beta, build x * fluid.layers.sigmoid(fluid.layers.scale(x, %s))"
                      % beta)
    return _activation("swish", x, {}, name)


def brelu(x, t_min=0.0, t_max=24.0, name=None):
    return _activation("brelu", x, {"t_min": t_min, "t_max": t_max}, name)


def selu(x, scale=None, alpha=None, name=None):
    """selu; a `scale` or `alpha` left None keeps the op's default."""
    attrs = {}
    if scale is not None:
        attrs["scale"] = scale
    if alpha is not None:
        attrs["alpha"] = alpha
    return _activation("selu", x, attrs, name)


def clip(x, min, max, name=None):
    """`x` clipped to `[min, max]` (into the variable `name` when given)."""
    helper = LayerHelper("clip", **locals())
    _check_var(x, "x", "clip")
    if name is None:
        out = helper.create_variable_for_type_inference(dtype=x.dtype)
    else:
        out = helper.create_variable(type=x.type, name=name, dtype=x.dtype, persistable=False)
    helper.append_op(type="clip", inputs={"X": x}, outputs={"Out": out},
                     attrs={"min": min, "max": max})
    return out


def merge_selected_rows(x, name=None):
    """A SelectedRows `x` (a sparse gradient) with each row once, its
    values summed, rows in increasing order (1.3+)."""
    helper = LayerHelper("merge_selected_rows", **locals())
    out = helper.create_variable_for_type_inference(dtype=x.dtype)
    helper.append_op(type="merge_selected_rows", inputs={"X": x}, attrs={},
                     outputs={"Out": out})
    return out


def get_tensor_from_selected_rows(x, name=None):
    """The value tensor of a SelectedRows `x`: one row per row it has
    (1.3+)."""
    helper = LayerHelper("get_tensor_from_selected_rows", **locals())
    out = helper.create_variable_for_type_inference(dtype=x.dtype)
    helper.append_op(type="get_tensor_from_selected_rows", inputs={"X": x},
                     outputs={"Out": out}, attrs={})
    return out


# ---------------------------------------------------------------- sequence labelling


def linear_chain_crf(input, label, param_attr=None):
    """The negative log-likelihood of each sequence's `label` tags under a
    linear-chain CRF over the emission scores `input` ([N, D], one row of
    D tag scores per word, with `label`'s LoD), one row per sequence. The
    transition weights are a new [D + 2, D] parameter (`param_attr`; the
    start and end weights, then a row per tag), which crf_decoding reads
    by its name."""
    helper = LayerHelper("linear_chain_crf", **locals())
    _check_var(input, "input", "linear_chain_crf")
    _check_var(label, "label", "linear_chain_crf")
    size = input.shape[1]
    transition = helper.create_parameter(attr=helper.param_attr, shape=[size + 2, size],
                                         dtype=helper.input_dtype())
    alpha = helper.create_variable_for_type_inference(dtype=helper.input_dtype())
    emission_exps = helper.create_variable_for_type_inference(dtype=helper.input_dtype())
    transition_exps = helper.create_variable_for_type_inference(dtype=helper.input_dtype())
    log_likelihood = helper.create_variable_for_type_inference(dtype=helper.input_dtype())
    helper.append_op(type="linear_chain_crf",
                     inputs={"Emission": [input], "Transition": transition, "Label": label},
                     outputs={"Alpha": [alpha], "EmissionExps": [emission_exps],
                              "TransitionExps": transition_exps,
                              "LogLikelihood": log_likelihood})
    return log_likelihood


def crf_decoding(input, param_attr, label=None, length=None):
    """The best tag sequence (Viterbi) of each sequence of `input` under the
    transition weights named by `param_attr` (those of a linear_chain_crf):
    int64 tags [N, 1] with `input`'s LoD; with `label`, 1 where the tag is
    the label's and 0 elsewhere. `length` (1.6's padded mode) takes a
    [B, S, D] `input` and each sequence's length, giving [B, S] tags."""
    helper = LayerHelper("crf_decoding", **locals())
    _check_var(input, "input", "crf_decoding")
    transition = helper.get_parameter(param_attr.name)
    viterbi_path = helper.create_variable_for_type_inference(dtype=helper.input_dtype())
    inputs = {"Emission": [input], "Transition": transition, "Label": label}
    if length is not None:
        _check_var(length, "length", "crf_decoding")
        inputs["Length"] = length
    helper.append_op(type="crf_decoding", inputs=inputs,
                     outputs={"ViterbiPath": [viterbi_path]})
    return viterbi_path


def chunk_eval(input, label, chunk_scheme, num_chunk_types, excluded_chunk_types=None,
               seq_length=None):
    """Precision, recall and F1 of the chunks the tags `input` find against
    those of `label` (int64 tags with one LoD level, or padded [B, S] tags
    with `seq_length`, 1.6's), in the `chunk_scheme` (IOB, IOE, IOBES or
    plain) with `num_chunk_types` chunk types, skipping
    `excluded_chunk_types`. Returns (precision, recall, f1_score,
    num_infer_chunks, num_label_chunks, num_correct_chunks)."""
    helper = LayerHelper("chunk_eval", **locals())
    _check_var(input, "input", "chunk_eval")
    _check_var(label, "label", "chunk_eval")
    precision = helper.create_variable_for_type_inference(dtype="float32")
    recall = helper.create_variable_for_type_inference(dtype="float32")
    f1_score = helper.create_variable_for_type_inference(dtype="float32")
    num_infer_chunks = helper.create_variable_for_type_inference(dtype="int64")
    num_label_chunks = helper.create_variable_for_type_inference(dtype="int64")
    num_correct_chunks = helper.create_variable_for_type_inference(dtype="int64")
    inputs = {"Inference": [input], "Label": [label]}
    if seq_length is not None:
        _check_var(seq_length, "seq_length", "chunk_eval")
        inputs["SeqLength"] = [seq_length]
    helper.append_op(type="chunk_eval", inputs=inputs,
                     outputs={"Precision": [precision], "Recall": [recall],
                              "F1-Score": [f1_score], "NumInferChunks": [num_infer_chunks],
                              "NumLabelChunks": [num_label_chunks],
                              "NumCorrectChunks": [num_correct_chunks]},
                     attrs={"num_chunk_types": num_chunk_types, "chunk_scheme": chunk_scheme,
                            "excluded_chunk_types": excluded_chunk_types or []})
    return (precision, recall, f1_score, num_infer_chunks, num_label_chunks,
            num_correct_chunks)


def beam_search(pre_ids, pre_scores, ids, scores, beam_size, end_id, level=0,
                is_accumulated=True, name=None, return_parent_idx=False):
    """One step of beam search (1.x's layer: 1.2's `is_accumulated`, 1.4's
    `return_parent_idx`): for each source sentence, the `beam_size` best
    candidates among its prefixes' `ids` (None: each column is its id) by
    `scores` (accumulated log-probabilities, or probabilities with
    `is_accumulated=False`). `pre_ids` and `pre_scores` are the previous
    step's selection (a 2-level LoD: sources, prefixes); a prefix whose
    `pre_id` is `end_id` has ended and offers only `end_id`. Returns the
    selected ids and scores with a 2-level LoD, and with
    `return_parent_idx` the int32 row of `pre_ids` each grew from."""
    _check_var(pre_ids, "pre_ids", "beam_search")
    _check_var(pre_scores, "pre_scores", "beam_search")
    _check_var(scores, "scores", "beam_search")
    if ids is not None:
        _check_var(ids, "ids", "beam_search")
    if level != 0:
        raise ValueError("beam_search's level must be 0 (the LoD level of the source "
                         "sentences), not %r" % (level,))
    helper = LayerHelper("beam_search", **locals())
    inputs = {"pre_ids": pre_ids, "pre_scores": pre_scores, "scores": scores}
    if ids is not None:
        inputs["ids"] = ids
    selected_scores = helper.create_variable_for_type_inference(dtype=pre_scores.dtype)
    selected_ids = helper.create_variable_for_type_inference(dtype=pre_ids.dtype)
    parent_idx = helper.create_variable_for_type_inference(dtype="int32")
    helper.append_op(type="beam_search", inputs=inputs,
                     outputs={"selected_ids": selected_ids,
                              "selected_scores": selected_scores,
                              "parent_idx": parent_idx},
                     attrs={"level": level, "beam_size": beam_size, "end_id": end_id,
                            "is_accumulated": is_accumulated})
    if return_parent_idx:
        return selected_ids, selected_scores, parent_idx
    return selected_ids, selected_scores


def beam_search_decode(ids, scores, beam_size, end_id, name=None):
    """The sentences of a beam search: backtracks the tensor arrays of
    each step's selected `ids` and `scores` (beam_search's outputs) into
    `beam_size` sentences per source, best first, with a 2-level LoD
    (sources, sentences)."""
    _check_var(ids, "ids", "beam_search_decode")
    _check_var(scores, "scores", "beam_search_decode")
    helper = LayerHelper("beam_search_decode", **locals())
    sentence_ids = helper.create_variable_for_type_inference(dtype=ids.dtype)
    sentence_scores = helper.create_variable_for_type_inference(dtype=scores.dtype)
    helper.append_op(type="beam_search_decode", inputs={"Ids": ids, "Scores": scores},
                     outputs={"SentenceIds": sentence_ids,
                              "SentenceScores": sentence_scores},
                     attrs={"beam_size": beam_size, "end_id": end_id})
    return sentence_ids, sentence_scores


def mse_loss(input, label):
    """The mean of `(input - label)^2` (1.6): `square_error_cost`, then
    `reduce_mean`."""
    return reduce_mean(square_error_cost(input, label))


def roi_pool(input, rois, pooled_height=1, pooled_width=1, spatial_scale=1.0):
    """1.x's: max pooling of each region of interest (`rois`, a [R, 4]
    LoDTensor of x1, y1, x2, y2 whose LoD gives each image's regions) into
    a [R, C, pooled_height, pooled_width] map."""
    helper = LayerHelper('roi_pool', **locals())
    dtype = helper.input_dtype()
    pool_out = helper.create_variable_for_type_inference(dtype)
    argmaxes = helper.create_variable_for_type_inference(dtype='int32')
    helper.append_op(type="roi_pool", inputs={"X": input, "ROIs": rois},
                     outputs={"Out": pool_out, "Argmax": argmaxes},
                     attrs={"pooled_height": pooled_height, "pooled_width": pooled_width,
                            "spatial_scale": spatial_scale})
    return pool_out


def roi_align(input, rois, pooled_height=1, pooled_width=1, spatial_scale=1.0,
              sampling_ratio=-1, name=None):
    """1.x's: each region of interest (as roi_pool's) pooled by averaging
    bilinear samples, `sampling_ratio` a side per bin (adaptive when -1)."""
    helper = LayerHelper('roi_align', **locals())
    dtype = helper.input_dtype()
    align_out = helper.create_variable_for_type_inference(dtype)
    helper.append_op(type="roi_align", inputs={"X": input, "ROIs": rois},
                     outputs={"Out": align_out},
                     attrs={"pooled_height": pooled_height, "pooled_width": pooled_width,
                            "spatial_scale": spatial_scale, "sampling_ratio": sampling_ratio})
    return align_out


def center_loss(input, label, num_classes, alpha, param_attr, update_center=True):
    """1.6's center loss: `|input - centers[label]|^2 / 2` per sample, the
    `[num_classes, D]` centers a parameter the op itself moves towards
    each batch's samples at rate `alpha` (when `update_center`), not
    trained by the optimizer."""
    helper = LayerHelper('center_loss', **locals())
    dtype = helper.input_dtype()
    centers_shape = [num_classes, input.shape[1]]
    centers_param = helper.create_parameter(attr=param_attr, shape=centers_shape, dtype=dtype)
    centers_param.stop_gradient = True

    if isinstance(alpha, Variable):
        alpha_param = alpha
    else:
        assert isinstance(alpha, float)
        alpha_param = helper.create_variable(
            name="centerloss_alpha", shape=[1], dtype="float32",
            type=core.VarDesc.VarType.LOD_TENSOR, persistable=True, stop_gradient=True,
            initializer=Constant(alpha))

    centersdiff = helper.create_variable_for_type_inference(dtype=input.dtype)
    loss = helper.create_variable_for_type_inference(dtype=input.dtype)
    helper.append_op(
        type='center_loss',
        inputs={'X': [input], 'Label': [label], 'Centers': [centers_param],
                'CenterUpdateRate': [alpha_param]},
        outputs={'SampleCenterDiff': [centersdiff], 'Loss': [loss],
                 'CentersOut': [centers_param]},
        attrs={'cluster_num': num_classes, 'need_update': update_center})
    return loss


def grid_sampler(x, grid, name=None):
    """1.x's: `x` ([N, C, H, W]) sampled bilinearly at `grid` ([N, H, W,
    2] of x, y in [-1, 1], corners aligned), zero outside. As in 1.x, a
    non-Variable argument returns (not raises) a ValueError."""
    helper = LayerHelper("grid_sampler", **locals())
    if not isinstance(x, Variable):
        return ValueError("The x should be a Variable")
    if not isinstance(grid, Variable):
        return ValueError("The grid should be a Variable")
    out = helper.create_variable_for_type_inference(x.dtype)
    ipts = {'X': x, 'Grid': grid}
    helper.append_op(type='grid_sampler', inputs=ipts, outputs={'Output': out})
    return out


def affine_grid(theta, out_shape, name=None):
    """1.x's: the [N, H, W, 2] sampling grid of the affine maps `theta`
    ([N, 2, 3]) for an output of `out_shape` ([N, C, H, W], a list, tuple
    or int32 Variable)."""
    helper = LayerHelper('affine_grid')
    if not (isinstance(out_shape, list) or isinstance(out_shape, tuple) or
            isinstance(out_shape, Variable)):
        raise ValueError("The out_shape should be a list, tuple or Variable.")
    if not isinstance(theta, Variable):
        raise ValueError("The theta should be a Variable.")
    out = helper.create_variable_for_type_inference(theta.dtype)
    ipts = {'Theta': theta}
    attrs = {}
    if isinstance(out_shape, Variable):
        ipts['OutputShape'] = out_shape
    else:
        attrs['output_shape'] = out_shape
    helper.append_op(type='affine_grid', inputs=ipts, outputs={'Output': out},
                     attrs=None if len(attrs) == 0 else attrs)
    return out


def sequence_scatter(input, index, updates, name=None):
    """1.x's: `input` with each value of `updates` added to row k of
    `input` (sequence k of `index`'s LoD) at the column `index` gives."""
    helper = LayerHelper('sequence_scatter', **locals())
    dtype = helper.input_dtype()
    out = helper.create_variable_for_type_inference(dtype)
    helper.append_op(type="sequence_scatter",
                     inputs={"X": input, "Ids": index, "Updates": updates},
                     outputs={"Out": out})
    return out


def dice_loss(input, label, epsilon=0.00001, name=None):
    """`1 - 2 |input * label| / (|input| + |label| + epsilon)` per sample,
    averaged over the batch: `label` (int ids `[..., 1]`) becomes one-hot
    over `input`'s last axis (the classes), the sums run over every axis but
    the batch's."""
    _check_var(input, "input", "dice_loss")
    _check_var(label, "label", "dice_loss")
    if name is not None:
        from ... import _stack
        warnings.warn("dice_loss: Paddle 1.x's layer did not use name=%r (its ops are named "
                      "by their types); fluidc does the same" % (name,),
                      stacklevel=_stack.user_stacklevel())
    label = one_hot(label, depth=input.shape[-1])
    reduce_dim = list(range(1, len(input.shape)))
    inse = reduce_sum(input * label, dim=reduce_dim)
    dice_denominator = reduce_sum(input, dim=reduce_dim) + reduce_sum(label, dim=reduce_dim)
    dice_score = 1 - inse * 2 / (dice_denominator + epsilon)
    return reduce_mean(dice_score)


def npair_loss(anchor, positive, labels, l2_reg=0.002):
    """The N-pair loss (Sohn 2016), as 1.4-1.6 composed it: the soft
    cross entropy of the anchor-positive similarities (`anchor ×
    positiveᵀ`) against the rows of "same label" (normalized), plus
    `l2_reg * 0.25` times the mean squared norms of both embeddings.
    `labels` is `[batch_size]`; the batch size must be known when the
    program is built."""
    from .control_flow import equal
    from .ops import square
    _check_var(anchor, "anchor", "npair_loss")
    _check_var(positive, "positive", "npair_loss")
    _check_var(labels, "labels", "npair_loss")
    beta = 0.25
    batch_size = labels.shape[0]
    labels = reshape(labels, shape=[batch_size, 1], inplace=True)
    labels = expand(labels, expand_times=[1, batch_size])
    labels = equal(labels, transpose(labels, perm=[1, 0])).astype('float32')
    labels = labels / reduce_sum(labels, dim=1, keep_dim=True)
    l2loss = reduce_mean(reduce_sum(square(anchor), 1)) \
        + reduce_mean(reduce_sum(square(positive), 1))
    l2loss = l2loss * beta * l2_reg
    similarity_matrix = matmul(anchor, positive, transpose_x=False, transpose_y=True)
    softmax_ce = softmax_with_cross_entropy(logits=similarity_matrix, label=labels,
                                            soft_label=True)
    cross_entropy = reduce_sum(labels * softmax_ce, 0)
    celoss = reduce_mean(cross_entropy)
    return l2loss + celoss


def rank(input):
    """The number of dimensions of `input`, known when the program is
    built: an int32 constant (`assign_value`)."""
    from .tensor import assign
    _check_var(input, "input", "rank")
    return assign(np.array(len(input.shape), 'int32'))
def scatter(input, index, updates, name=None, overwrite=True):
    """`input` with the rows at `index` (1-D int32/int64) set to the rows of
    `updates`: the last one for a repeated index (`overwrite`), or their
    sum (`overwrite=False`, 1.6). As 1.x's kernel, the gradient of `input`
    is the output's gradient whole, scattered rows included."""
    helper = LayerHelper('scatter', **locals())
    dtype = helper.input_dtype()
    out = helper.create_variable_for_type_inference(dtype)
    helper.append_op(type="scatter", inputs={"X": input, "Ids": index, "Updates": updates},
                     attrs={'overwrite': overwrite}, outputs={"Out": out})
    return out


def gather_nd(input, index, name=None):
    """The slices of `input` that the rows of `index` (its last dim) address:
    the output is `index.shape[:-1] + input.shape[index.shape[-1]:]`."""
    helper = LayerHelper('gather_nd', **locals())
    dtype = helper.input_dtype()
    output = helper.create_named_output(name, dtype)
    helper.append_op(type="gather_nd", inputs={"X": input, "Index": index},
                     outputs={"Out": output})
    return output


def scatter_nd_add(ref, index, updates, name=None):
    """`ref` with `updates` added at the slices the rows of `index` (its
    last dim) address, a slice addressed twice getting both (1.6)."""
    if ref.dtype != updates.dtype:
        raise ValueError("ref and updates must have same data type.")
    helper = LayerHelper('scatter_nd_add', **locals())
    output = helper.create_named_output(name, helper.input_dtype(input_param_name='ref'))
    helper.append_op(type="scatter_nd_add", inputs={"X": ref, "Index": index, "Updates": updates},
                     outputs={"Out": output})
    return output


def scatter_nd(index, updates, shape, name=None):
    """`updates` added into zeros of `shape` at `index` (1.6)."""
    return scatter_nd_add(zeros(shape, updates.dtype), index, updates, name)


def continuous_value_model(input, cvm, use_cvm=True):
    """CTR models' continuous value model (1.5-1.6): each row of `input`
    (`[N, D]`, LoD) starts with its show and click values, which become
    `log(show + 1)` and `log(click + 1) - log(show + 1)` (`use_cvm`) or
    are dropped (`[N, D - 2]`); the gradient gives those two places the
    values of `cvm` (`[sequences, 2]`, show and click), as Paddle's op
    did."""
    helper = LayerHelper("cvm", **locals())
    out = helper.create_variable_for_type_inference(dtype=input.dtype)
    helper.append_op(type="cvm", inputs={"X": [input], "CVM": [cvm]}, outputs={"Y": [out]},
                     attrs={"use_cvm": use_cvm})
    return out


def hash(input, hash_size, num_hash=1, name=None):
    """Each row of int ids (`input`, `[N, width]`, int32 or int64, LoD
    kept) hashed `num_hash` times into `[0, hash_size)`: `[N, num_hash,
    1]` in the ids' dtype (1.4-1.6; Paddle's XXH64 hashes, so ids match
    embeddings trained under Paddle)."""
    _check_var(input, "input", "hash")
    helper = LayerHelper("hash", **locals())
    out = helper.create_variable_for_type_inference(helper.input_dtype(), stop_gradient=True)
    helper.append_op(type="hash", inputs={"X": input}, outputs={"Out": out},
                     attrs={"num_hash": num_hash, "mod_by": hash_size})
    return out


def shard_index(input, index_num, nshards, shard_id, ignore_value=-1):
    """Ids of a vocabulary of `index_num` split in `nshards` shards: an id
    in shard `shard_id` becomes its place there, any other `ignore_value`
    (1.6)."""
    helper = LayerHelper('shard_index', **locals())
    if shard_id < 0 or shard_id >= nshards:
        raise ValueError('The shard_id(%d) should be in [0, %d)' % (shard_id, nshards))
    out = helper.create_variable_for_type_inference(dtype=input.dtype)
    helper.append_op(type='shard_index', inputs={'X': [input]}, outputs={'Out': out},
                     attrs={'index_num': index_num, 'nshards': nshards, 'shard_id': shard_id,
                            'ignore_value': ignore_value})
    return out


def add_position_encoding(input, alpha, beta, name=None):
    """`input * alpha` plus the Transformer's sinusoids of each step's
    position times `beta` (the first half of the last dim sines, the
    second cosines), per sequence of a LoD batch or row of a 3-D batch."""
    helper = LayerHelper('add_position_encoding', **locals())
    out = helper.create_named_output(name, helper.input_dtype())
    helper.append_op(type="add_position_encoding", inputs={"X": input}, outputs={"Out": out},
                     attrs={"alpha": alpha, "beta": beta})
    return out


def multiplex(inputs, index):
    """Row i of the output is row i of `inputs[index[i]]` (`index` an
    int32 [rows, 1] Variable)."""
    helper = LayerHelper('multiplex', **locals())
    if not isinstance(inputs, list) and len(inputs) < 2:
        raise ValueError("inputs should be a list object and contains at least "
                         "2 elements.")
    out = helper.create_variable_for_type_inference(inputs[0].dtype)
    helper.append_op(type='multiplex', inputs={'X': inputs, 'Ids': index},
                     outputs={'Out': [out]})
    return out


def crop(x, shape=None, offsets=None, name=None):
    """The box of `x` at `offsets` (a list, or an int32 Variable, one per
    dim; zeros by default) of dims `shape`: a list (a -1 first dim is
    `x`'s batch) or a Variable, whose dims are taken."""
    helper = LayerHelper('crop', **locals())
    if not (isinstance(shape, list) or isinstance(shape, tuple) or
            isinstance(shape, Variable)):
        raise ValueError("The shape should be a list, tuple or Variable.")
    if offsets is None:
        offsets = [0] * len(x.shape)
    out = helper.create_variable_for_type_inference(x.dtype)
    ipts = {'X': x}
    attrs = {}
    if isinstance(shape, Variable):
        ipts['Y'] = shape
    else:
        attrs['shape'] = shape
    if isinstance(offsets, Variable):
        ipts['Offsets'] = offsets
    else:
        attrs['offsets'] = offsets
    helper.append_op(type='crop', inputs=ipts, outputs={'Out': out},
                     attrs=None if len(attrs) == 0 else attrs)
    return out


def pad2d(input, paddings=[0, 0, 0, 0], mode='constant', pad_value=0.0,
          data_format="NCHW", name=None):
    """A 4-D image batch padded on its height and width by `paddings`
    (top, bottom, left, right; a list or an int32 Variable): with
    `pad_value` ('constant'), its mirror image ('reflect') or its edge
    repeated ('edge')."""
    helper = LayerHelper('pad2d', **locals())
    assert mode in ['reflect', 'edge', 'constant'], \
        "mode should be one of constant, reflect, edge."
    dtype = helper.input_dtype(input_param_name='input')
    out = helper.create_variable_for_type_inference(dtype)
    inputs = {'X': input}
    attrs = {'mode': mode, 'pad_value': pad_value, 'data_format': data_format}
    if isinstance(paddings, Variable):
        inputs['Paddings'] = paddings
        attrs['paddings'] = []
    else:
        attrs['paddings'] = paddings
    helper.append_op(type='pad2d', inputs=inputs, outputs={"Out": out}, attrs=attrs)
    return out


def pad_constant_like(x, y, pad_value=0., name=None):
    """`y` padded with `pad_value` at the end of each dim to the shape of
    `x`."""
    helper = LayerHelper('pad_constant_like', input=x, **locals())
    dtype = helper.input_dtype()
    out = helper.create_variable_for_type_inference(dtype)
    helper.append_op(type='pad_constant_like', inputs={'X': x, 'Y': y},
                     outputs={'Out': out}, attrs={'pad_value': float(pad_value)})
    return out


def maxout(x, groups, name=None):
    """The max over each run of `groups` channels of an NCHW `x`: the
    output has `C / groups` channels."""
    helper = LayerHelper("maxout", **locals())
    out = helper.create_named_output(name, x.dtype)
    helper.append_op(type="maxout", inputs={"X": x}, attrs={"groups": groups},
                     outputs={"Out": out})
    return out


def space_to_depth(x, blocksize, name=None):
    """`[N, C, H, W]` to `[N, C * blocksize**2, H / blocksize, W / blocksize]`,
    the elements moved as 1.x's kernel (darknet's reorg) moved them."""
    helper = LayerHelper("space_to_depth", **locals())
    if not (isinstance(blocksize, int)):
        raise ValueError("blocksize must be a python Int")
    out = helper.create_named_output(name, x.dtype)
    helper.append_op(type="space_to_depth", inputs={"X": x},
                     attrs={"blocksize": blocksize}, outputs={"Out": out})
    return out


def pixel_shuffle(x, upscale_factor):
    """`[N, C * r**2, H, W]` to `[N, C, H * r, W * r]` (sub-pixel
    convolution's rearrangement), `r` the `upscale_factor`."""
    helper = LayerHelper("pixel_shuffle", **locals())
    out = helper.create_variable_for_type_inference(dtype=x.dtype)
    if not isinstance(upscale_factor, int):
        raise TypeError("upscale factor must be int type")
    helper.append_op(type="pixel_shuffle", inputs={"X": x}, outputs={"Out": out},
                     attrs={"upscale_factor": upscale_factor})
    return out


def shuffle_channel(x, group, name=None):
    """ShuffleNet's channel shuffle: the channels of an NCHW `x` seen as
    `[group, C / group]` and transposed."""
    helper = LayerHelper("shuffle_channel", **locals())
    out = helper.create_variable_for_type_inference(dtype=x.dtype)
    if not isinstance(group, int):
        raise TypeError("group must be int type")
    helper.append_op(type="shuffle_channel", inputs={"X": x}, outputs={"Out": out},
                     attrs={"group": group})
    return out


def hsigmoid(input, label, num_classes, param_attr=None, bias_attr=None, name=None,
             path_table=None, path_code=None, is_custom=False, is_sparse=False):
    """Hierarchical sigmoid cost (1.6's layer): over the default complete
    binary tree of `num_classes` classes, or a custom tree (`is_custom`)
    given per sample by `path_table` (the nodes, -1 past the end) and
    `path_code` (the bits). W has a row per non-leaf node."""
    helper = LayerHelper('hierarchical_sigmoid', **locals())
    dtype = helper.input_dtype()
    out = helper.create_variable_for_type_inference(dtype)
    pre_out = helper.create_variable_for_type_inference(dtype)
    dim = input.shape[1]
    if ((num_classes is None) or (num_classes < 2)) and (not is_custom):
        raise ValueError("num_classes must not be less than 2 with default tree")
    if (not is_custom) and (is_sparse):
        print("Sparse mode should not be used without custom tree")
        is_sparse = False
    if (not is_custom) and ((path_table is not None) or (path_code is not None)):
        raise ValueError("only num_classes should be passed without custom tree")
    if (is_custom) and (path_code is None):
        raise ValueError("path_code should not be None with custom tree")
    elif (is_custom) and (path_table is None):
        raise ValueError("path_table should not be None with custom tree")
    elif (is_custom) and (num_classes is None):
        raise ValueError("num_classes should not be None with custom tree")
    remote_prefetch = is_sparse
    print("With sparse mode, if your models has only small parameter prefetch may cause speed down")
    rows = num_classes - 1 if not is_custom else num_classes
    weights = helper.create_parameter(attr=helper.param_attr, shape=[rows, dim],
                                      is_bias=False, dtype=input.dtype)
    inputs = {"X": input, "W": weights, "Label": label}
    if path_table is not None:
        inputs["PathTable"] = path_table
    if path_code is not None:
        inputs["PathCode"] = path_code
    if helper.bias_attr:
        inputs['Bias'] = helper.create_parameter(attr=helper.bias_attr, shape=[rows, 1],
                                                 is_bias=True, dtype=input.dtype)
    helper.append_op(type="hierarchical_sigmoid", inputs=inputs,
                     outputs={"Out": out, "PreOut": pre_out, "W_Out": weights},
                     attrs={"num_classes": num_classes, "is_sparse": is_sparse,
                            "remote_prefetch": remote_prefetch})
    return out


def hard_swish(x, threshold=6.0, scale=6.0, offset=3.0, name=None):
    """`x * min(max(x + offset, 0), threshold) / scale` (MobileNetV3's)."""
    helper = LayerHelper('hard_swish', **locals())
    out = helper.create_variable_for_type_inference(dtype=x.dtype)
    helper.append_op(type='hard_swish', inputs={'X': x}, outputs={'Out': out},
                     attrs={'threshold': threshold, 'scale': scale, 'offset': offset})
    return out


def soft_relu(x, threshold=40.0, name=None):
    """`log(1 + exp(x))`, `x` clipped to `[-threshold, threshold]`."""
    helper = LayerHelper('soft_relu', **locals())
    out = helper.create_variable_for_type_inference(dtype=x.dtype)
    helper.append_op(type='soft_relu', inputs={'X': x}, outputs={'Out': out},
                     attrs={'threshold': threshold})
    return out


def clip_by_norm(x, max_norm, name=None):
    """`x` scaled down to an L2 norm of `max_norm` when its norm is larger
    (the norm of the whole tensor); it has no gradient."""
    helper = LayerHelper("clip_by_norm", **locals())
    out = helper.create_named_output(name, x.dtype)
    helper.append_op(type="clip_by_norm", inputs={"X": x}, attrs={"max_norm": max_norm},
                     outputs={"Out": out})
    return out


def kldiv_loss(x, target, reduction='mean', name=None):
    """The KL divergence of `target` (probabilities) from `x` (their logs,
    as log_softmax gives): `target * (log(target) - x)`, 0 where the target
    is not positive; `reduction` 'none', 'batchmean', 'mean' or 'sum'."""
    helper = LayerHelper('kldiv_loss', **locals())
    loss = helper.create_variable_for_type_inference(dtype=x.dtype)
    helper.append_op(type='kldiv_loss', inputs={'X': x, 'Target': target},
                     outputs={'Loss': loss}, attrs={'reduction': reduction})
    return loss


def affine_channel(x, scale=None, bias=None, data_layout='NCHW', name=None, act=None):
    """`x * scale[c] + bias[c]` per channel `c` (dim 1, or the last with
    NHWC), `scale` and `bias` Variables of one value per channel (a frozen
    batch norm, as 2018-19 detection models used it); then `act`."""
    helper = LayerHelper("affine_channel", **locals())
    out = helper.create_named_output(name, x.dtype)
    helper.append_op(type="affine_channel",
                     inputs={"X": x, 'Scale': scale, 'Bias': bias},
                     attrs={"data_layout": data_layout},
                     outputs={"Out": out})
    return helper.append_activation(out)


def expand_as(x, target_tensor, name=None):
    """`x` tiled to the shape of `target_tensor` (each of its dims a
    multiple of `x`'s)."""
    helper = LayerHelper('expand_as', input=x, **locals())
    dtype = helper.input_dtype(input_param_name='x')
    out = helper.create_variable_for_type_inference(dtype)
    inputs = {'X': x, 'target_tensor': target_tensor}
    helper.append_op(type='expand_as', inputs=inputs, outputs={'Out': out})
    return out


def bpr_loss(input, label, name=None):
    """Bayesian personalized ranking loss: for each row of `input` (class
    scores), the mean over the classes other than `label` of
    `log(1 + exp(score - score[label]))`; shaped `[N, 1]`."""
    helper = LayerHelper('bpr_loss', **locals())
    out = helper.create_variable_for_type_inference(dtype=input.dtype)
    helper.append_op(type='bpr_loss', inputs={'X': [input], 'Label': [label]},
                     outputs={'Y': [out]})
    return out


def mean_iou(input, label, num_classes):
    """Mean intersection-over-union of segmentation labels (int32 or
    int64): returns the float32 `[1]` mean over the classes that occur, and
    the int32 `[num_classes]` wrong and correct counts of each class."""
    helper = LayerHelper('mean_iou', **locals())
    out_mean_iou = helper.create_variable_for_type_inference(dtype='float32')
    out_wrong = helper.create_variable_for_type_inference(dtype='int32')
    out_correct = helper.create_variable_for_type_inference(dtype='int32')
    helper.append_op(type='mean_iou', inputs={'Predictions': input, 'Labels': label},
                     outputs={'OutMeanIou': out_mean_iou, 'OutWrong': out_wrong,
                              'OutCorrect': out_correct},
                     attrs={'num_classes': num_classes})
    return out_mean_iou, out_wrong, out_correct


def sampling_id(x, min=0.0, max=1.0, seed=0, dtype='float32'):
    """For each row of probabilities `x`, a class id drawn from it (a uniform
    draw in [min, max) walked through the row); int64 ids. A non-zero
    `seed` draws the same ids each run."""
    helper = LayerHelper('sampling_id', **locals())
    out = helper.create_variable_for_type_inference(dtype)
    helper.append_op(type='sampling_id', inputs={'X': x}, outputs={'Out': out},
                     attrs={'min': min, 'max': max, 'seed': seed})
    return out



class PyFuncRegistry(object):
    """A `py_func` function registered with the core (1.x's registry): the
    op names it by `id`. Called with the op's LoDTensors, it gives the
    function those its signature names as keyword arguments, the others
    positionally after them, and returns a tuple of LoDTensors or None."""
    _register_funcs = []

    def __init__(self, func):
        if func is None or not callable(func):
            raise TypeError('func must be a Python function')
        self._func = func
        import inspect  # on first use: importing it costs a tenth of `import paddle.fluid`
        spec = inspect.getargspec(func)
        takes_nothing = not spec[0] and spec[1] is None and spec[2] is None
        self._named_args = None if takes_nothing else spec[0]
        self._id = core._append_python_callable_object_and_return_id(self)
        # kept alive here, and for `py_func.registered_func(idx)`
        PyFuncRegistry._register_funcs.append(self)

    @classmethod
    def registered_func(cls, idx):
        return cls._register_funcs[idx]._func

    @classmethod
    def registered_func_num(cls):
        return len(cls._register_funcs)

    @property
    def id(self):
        return self._id

    def __call__(self, *args):
        if self._named_args is None:
            result = self._func()
        else:
            named = len(self._named_args)
            kwargs = dict((name, args[i]) for i, name in enumerate(self._named_args))
            result = self._func(*args[named:], **kwargs)
        if not isinstance(result, (list, tuple)):
            result = (result, )
        tensors = []
        for value in result:
            if value is not None and not isinstance(value, core.LoDTensor):
                if not isinstance(value, np.ndarray):
                    value = np.array(value)
                tensor = core.LoDTensor()
                tensor.set(value, core.CPUPlace())
                value = tensor
            tensors.append(value)
        return tuple(tensors)


def py_func(func, x, out, backward_func=None, skip_vars_in_backward_input=None):
    """An op that runs the Python function `func` on the LoDTensors of `x`
    and sets `out` (Variables the caller created with their dtype and
    shape; None for none) to what it returns: None, an array or LoDTensor,
    or a tuple/list of them. `backward_func`, if given, is called with `x`,
    `out` and the gradients of `out` (less `skip_vars_in_backward_input`)
    and returns the gradients of `x`. Returns `out`."""
    helper = LayerHelper('py_func', **locals())
    if x is None:
        x = []
    elif isinstance(x, Variable):
        x = [x]
    elif not isinstance(x, (list, tuple)):
        raise TypeError('Input must be Variable/list(Variable)/tuple(Variable)')
    if out is None:
        out_list = []
    elif isinstance(out, Variable):
        out_list = [out]
    elif isinstance(out, (list, tuple)):
        out_list = out
    else:
        raise TypeError('Output must be Variable/list(Variable)/tuple(Variable)')

    forward_id = PyFuncRegistry(func).id
    backward_id = -1 if backward_func is None else PyFuncRegistry(backward_func).id
    if any(len(v.shape) == 0 for v in out_list):
        raise ValueError('Output shapes of py_func op should be provided by users manually')

    skipped = set()
    if backward_func is not None and skip_vars_in_backward_input is not None:
        skip = skip_vars_in_backward_input
        if isinstance(skip, Variable):
            skip = [skip]
        known = set(v.name for v in list(x) + list(out_list))
        for v in skip:
            if v.name not in known:
                raise ValueError('Variable {} is not found in forward inputs and outputs'
                                 .format(v.name))
            skipped.add(v.name)

    helper.append_op(type='py_func', inputs={'X': x}, outputs={'Out': out_list},
                     attrs={'forward_callable_id': forward_id,
                            'backward_callable_id': backward_id,
                            'backward_skip_vars': list(skipped)})
    return out


# for debugging: the functions registered so far
py_func.registered_func = PyFuncRegistry.registered_func
py_func.registered_func_num = PyFuncRegistry.registered_func_num
