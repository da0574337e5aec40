"""Layers over LoD sequences (1.x's `sequence_*` layers of `layers/nn.py`):
pooling, softmax and convolution within each sequence, and expanding rows
by another variable's LoD. The LoD itself is only known when the program
runs; at build time these layers check what the call alone can tell."""
import collections.abc

from ..framework import Variable, VarType
from ..layer_helper import LayerHelper

__all__ = [
    "sequence_pool", "sequence_first_step", "sequence_last_step", "sequence_softmax",
    "sequence_conv", "sequence_expand", "lod_reset", "lod_append", "sequence_mask",
    "sequence_pad", "sequence_unpad", "sequence_reverse", "sequence_concat",
    "sequence_slice", "sequence_reshape", "sequence_enumerate", "sequence_expand_as",
]

_POOL_TYPES = ("AVERAGE", "SUM", "SQRT", "MAX", "LAST", "FIRST")


def _check_var(x, name, layer):
    if not isinstance(x, Variable):
        raise TypeError("The type of '%s' in %s must be Variable, but received %s"
                        % (name, layer, type(x).__name__))


def sequence_pool(input, pool_type, is_test=False, pad_value=0.0):
    """One row per sequence of `input`'s last LoD level. The op's int32
    `MaxIndex` output only means something for `max`, where the gradient
    reads it, so it never takes a gradient itself."""
    _check_var(input, "input", "sequence_pool")
    if not isinstance(pool_type, str):
        raise TypeError("pool_type of sequence_pool must be a str, not %s"
                        % type(pool_type).__name__)
    pooltype = pool_type.upper()
    if pooltype not in _POOL_TYPES:
        raise ValueError("pool_type `%s` is not one of average, sum, sqrt, max, last, first"
                         % pool_type)
    helper = LayerHelper("sequence_pool", **locals())
    dtype = helper.input_dtype()
    pool_out = helper.create_variable_for_type_inference(dtype)
    max_index = helper.create_variable_for_type_inference(VarType.INT32)
    helper.append_op(type="sequence_pool", inputs={"X": input},
                     outputs={"Out": pool_out, "MaxIndex": max_index},
                     attrs={"pooltype": pooltype, "is_test": is_test,
                            "pad_value": float(pad_value)})
    if pooltype == "MAX":
        max_index.stop_gradient = True
    return pool_out


def sequence_first_step(input):
    return sequence_pool(input=input, pool_type="first")


def sequence_last_step(input):
    return sequence_pool(input=input, pool_type="last")


def sequence_softmax(input, use_cudnn=False, name=None):
    """A softmax over the rows of each sequence. `use_cudnn` picks
    Paddle's GPU kernel (the same values on the CPU); the op keeps it as
    its attribute, as 1.x's did."""
    _check_var(input, "input", "sequence_softmax")
    helper = LayerHelper("sequence_softmax", **locals())
    softmax_out = helper.create_variable_for_type_inference(helper.input_dtype())
    helper.append_op(type="sequence_softmax", inputs={"X": input},
                     outputs={"Out": softmax_out}, attrs={"use_cudnn": use_cudnn})
    return softmax_out


def sequence_conv(input, num_filters, filter_size=3, filter_stride=1, padding=None,
                  bias_attr=None, param_attr=None, act=None, name=None, padding_start=None):
    """A convolution over each sequence's rows: a `[filter_size * D,
    num_filters]` filter over a window starting `padding_start` rows
    before each row (centred by default), zeros past the sequence's ends.
    As in 1.x, `padding` is accepted and takes no effect; `padding_start`
    is 1.6's keyword."""
    _check_var(input, "input", "sequence_conv")
    if filter_size < 1:
        raise ValueError("filter_size %d of sequence_conv must be at least 1" % filter_size)
    if filter_stride != 1:
        raise ValueError("filter_stride %d is not supported: Paddle's sequence_conv only "
                         "takes 1" % filter_stride)
    helper = LayerHelper("sequence_conv", **locals())
    dtype = helper.input_dtype()
    if helper.param_attr is False:
        raise ValueError("sequence_conv needs a filter; param_attr cannot be False")
    filter_param = helper.create_parameter(
        attr=helper.param_attr, shape=[filter_size * input.shape[1], num_filters], dtype=dtype)
    if padding_start is None:
        padding_start = -int(filter_size // 2)
    pre_bias = helper.create_variable_for_type_inference(dtype)
    helper.append_op(type="sequence_conv", inputs={"X": [input], "Filter": [filter_param]},
                     outputs={"Out": pre_bias},
                     attrs={"contextStride": filter_stride, "contextStart": padding_start,
                            "contextLength": filter_size})
    pre_act = helper.append_bias_op(pre_bias)
    return helper.append_activation(pre_act)


def sequence_expand(x, y, ref_level=-1, name=None):
    """`x`'s rows (or sequences) repeated as `y`'s LoD level `ref_level`
    (-1: its last) says. Whether `y` has that level is known when the op
    runs; here only that the number can name one."""
    _check_var(x, "x", "sequence_expand")
    _check_var(y, "y", "sequence_expand")
    if ref_level < -1:
        raise ValueError("ref_level %d names no LoD level of y: use -1 (its last level) "
                         "or 0, 1, ..." % ref_level)
    helper = LayerHelper("sequence_expand", input=x, **locals())
    tmp = helper.create_variable_for_type_inference(helper.input_dtype())
    helper.append_op(type="sequence_expand", inputs={"X": x, "Y": y}, outputs={"Out": tmp},
                     attrs={"ref_level": ref_level})
    return tmp


def lod_reset(x, y=None, target_lod=None):
    """`x` with a new LoD: `y`'s LoD when `y` has one, else `y`'s int32
    values as the offsets of one level; or the offsets `target_lod`."""
    _check_var(x, "x", "lod_reset")
    helper = LayerHelper("lod_reset", **locals())
    out = helper.create_variable_for_type_inference(dtype=x.dtype)
    if y is not None:
        _check_var(y, "y", "lod_reset")
        helper.append_op(type="lod_reset", inputs={"X": x, "Y": y}, outputs={"Out": out})
    elif target_lod is not None:
        if not isinstance(target_lod, (list, tuple)):
            raise TypeError("target_lod of lod_reset must be a list or tuple of offsets, "
                            "not %s" % type(target_lod).__name__)
        helper.append_op(type="lod_reset", inputs={"X": x}, outputs={"Out": out},
                         attrs={"target_lod": [int(o) for o in target_lod]})
    else:
        raise ValueError("y and target_lod should not be both None.")
    return out


def lod_append(x, level):
    """1.6's: `x` with one more LoD level after its own, the offsets
    `level` (a list, tuple or other iterable) or the int32 offsets a
    Variable `level` holds (a `lod_reset` with `append`)."""
    if x is None:
        raise ValueError("Input(x) can't be None.")
    if not isinstance(level, (collections.abc.Iterable, Variable)):
        raise ValueError("Input(level) must be list, tuple or Variable.")
    helper = LayerHelper("lod_append", **locals())
    out = helper.create_variable_for_type_inference(dtype=x.dtype)
    inputs = {"X": x}
    attrs = {"append": True}
    if isinstance(level, Variable):
        inputs["Y"] = level
    else:
        attrs["target_lod"] = [int(o) for o in level]
    helper.append_op(type="lod_reset", inputs=inputs, attrs=attrs, outputs={"Out": out})
    return out


def sequence_mask(x, maxlen=None, dtype='int64', name=None):
    """A mask of `x`'s lengths (1.x's layer, since 1.0): `x`'s shape with
    `maxlen` appended, 1 where the place is below the length, in `dtype`.
    `maxlen` is an int, a Variable (the op's `MaxLenTensor`), or None for
    the largest length."""
    _check_var(x, "x", "sequence_mask")
    helper = LayerHelper('sequence_mask', **locals())
    if name is None:
        out = helper.create_variable_for_type_inference(dtype=dtype)
    else:
        out = helper.create_variable_for_type_inference(dtype=dtype, name=name)
    inputs = {'X': [x]}
    attrs = {'out_dtype': out.dtype}
    if maxlen is not None:
        if isinstance(maxlen, Variable):
            inputs['MaxLenTensor'] = maxlen
        else:
            attrs['maxlen'] = maxlen
    helper.append_op(type='sequence_mask', inputs=inputs, outputs={'Y': out}, attrs=attrs)
    out.stop_gradient = True
    return out


def sequence_pad(x, pad_value, maxlen=None, name=None):
    """Pads the sequences of `x` (1.x's layer, since 1.0) to `maxlen` steps
    (None: the longest sequence's) with `pad_value`, a Variable holding one
    value or one step; returns `(Out, Length)`: the padded
    `[sequences, maxlen, ...]` tensor and the int64 lengths, `[sequences,
    1]` as 1.2-1.5 gave them (1.6 and Paddle 3 give `[sequences]`)."""
    _check_var(x, "x", "sequence_pad")
    _check_var(pad_value, "pad_value", "sequence_pad")
    helper = LayerHelper('sequence_pad', input=x, **locals())
    dtype = helper.input_dtype()
    out = helper.create_variable_for_type_inference(dtype)
    length = helper.create_variable_for_type_inference(dtype)
    pad_value.stop_gradient = True
    length.stop_gradient = True
    if maxlen is None:
        maxlen = -1
    helper.append_op(type='sequence_pad', inputs={'X': x, 'PadValue': pad_value},
                     outputs={'Out': out, 'Length': length},
                     attrs={'padded_length': maxlen})
    return out, length


def sequence_unpad(x, length, name=None):
    """The padding of `x` removed (1.x's layer, since 1.0): the first
    `length[i]` steps of each `x[i]`, as a LoD tensor of one level."""
    _check_var(x, "x", "sequence_unpad")
    _check_var(length, "length", "sequence_unpad")
    helper = LayerHelper('sequence_unpad', input=x, **locals())
    dtype = helper.input_dtype()
    out = helper.create_variable_for_type_inference(dtype)
    length.stop_gradient = True
    helper.append_op(type='sequence_unpad', inputs={'X': x, 'Length': length},
                     outputs={'Out': out})
    return out


def sequence_reverse(x, name=None):
    """Each sequence of `x` (one LoD level) in reverse order (1.x's layer,
    since 1.1), the LoD kept; a reversed DynamicRNN's input."""
    _check_var(x, "x", "sequence_reverse")
    helper = LayerHelper("sequence_reverse", **locals())
    out = helper.create_named_output(name, x.dtype)
    helper.append_op(type="sequence_reverse", inputs={"X": x}, outputs={"Y": out},
                     attrs=dict())
    return out


def sequence_concat(input, name=None):
    """The sequences of the inputs joined one by one (1.x's layer): output
    sequence `i` is sequence `i` of each input, in order."""
    for x in (input if isinstance(input, (list, tuple)) else [input]):
        _check_var(x, "input", "sequence_concat")
    helper = LayerHelper('sequence_concat', **locals())
    out = helper.create_variable_for_type_inference(dtype=helper.input_dtype())
    helper.append_op(type='sequence_concat', inputs={'X': input}, outputs={'Out': [out]})
    return out


def sequence_slice(input, offset, length, name=None):
    """A slice of each sequence of `input` (1.x's layer): `length[i]` rows
    from `offset[i]`; `offset` and `length` are int64 `[sequences, 1]`."""
    _check_var(input, "input", "sequence_slice")
    helper = LayerHelper("sequence_slice", **locals())
    dtype = helper.input_dtype()
    out = helper.create_variable_for_type_inference(dtype)
    offset.stop_gradient = True
    length.stop_gradient = True
    helper.append_op(type="sequence_slice",
                     inputs={"X": input, "Offset": offset, "Length": length},
                     outputs={"Out": out})
    return out


def sequence_reshape(input, new_dim):
    """The rows of each sequence of `input` regrouped into rows of
    `new_dim` values (1.x's layer)."""
    _check_var(input, "input", "sequence_reshape")
    helper = LayerHelper('sequence_reshape', **locals())
    out = helper.create_variable_for_type_inference(helper.input_dtype())
    helper.append_op(type='sequence_reshape', inputs={'X': [input]},
                     outputs={'Out': [out]}, attrs={'new_dim': new_dim})
    return out


def sequence_enumerate(input, win_size, pad_value=0, name=None):
    """For each id of the sequences of `input` ([rows, 1] ints), the
    `win_size` ids from it on within its sequence, `pad_value` past the
    end (1.x's layer, since 1.1); no gradient."""
    _check_var(input, "input", "sequence_enumerate")
    helper = LayerHelper('sequence_enumerate', **locals())
    out = helper.create_variable_for_type_inference(helper.input_dtype(), stop_gradient=True)
    helper.append_op(type='sequence_enumerate', inputs={'X': input}, outputs={'Out': out},
                     attrs={'win_size': win_size, 'pad_value': pad_value})
    return out


def sequence_expand_as(x, y, name=None):
    """Row `i` of `x` repeated for each row of sequence `i` of `y` (1.x's
    layer, since 1.2); the result has `y`'s LoD."""
    _check_var(x, "x", "sequence_expand_as")
    _check_var(y, "y", "sequence_expand_as")
    helper = LayerHelper('sequence_expand_as', input=x, **locals())
    dtype = helper.input_dtype()
    tmp = helper.create_variable_for_type_inference(dtype)
    helper.append_op(type='sequence_expand_as', inputs={'X': x, 'Y': y},
                     outputs={'Out': tmp})
    return tmp
