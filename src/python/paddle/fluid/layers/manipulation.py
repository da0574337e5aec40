"""Layers that reshape, cut, join and pick from tensors (1.x's
`layers/nn.py` held them; `nn` re-exports them under that path): each
appends the op 1.x's layer appended, the outputs' shapes being what the op
definitions infer."""
from ..framework import Variable
from ..layer_helper import LayerHelper
from .tensor import fill_constant

__all__ = ["reshape", "stack", "unstack", "expand", "flatten", "transpose", "squeeze", "unsqueeze",
           "split", "slice", "shape", "gather", "pad"]


def _check_var(x, name, layer):
    if not isinstance(x, Variable):
        raise TypeError("The type of '%s' in %s must be Variable, but received %s"
                        % (name, layer, type(x).__name__))


def _int32_tensors(helper, values):
    """A list of ints and Variables as one int32 `[1]` tensor each (the
    ints as `fill_constant`s), for an op's list-of-tensors input."""
    tensors = []
    for v in values:
        if isinstance(v, Variable):
            v.stop_gradient = True
            tensors.append(v)
        else:
            t = helper.create_variable_for_type_inference("int32")
            fill_constant([1], "int32", v, force_cpu=True, out=t)
            tensors.append(t)
    return tensors


def reshape(x, shape, actual_shape=None, act=None, inplace=False, name=None):
    """`x` with the dims `shape` gives (one -1 inferred, 0 copies x's dim):
    a `reshape2` op with its XShape. A Variable in `shape` (or as `shape`,
    or `actual_shape`) sets the dims when the program runs."""
    _check_var(x, "x", "reshape")
    if not isinstance(shape, (list, tuple, Variable)):
        raise TypeError("Input shape must be an Variable or python list or tuple.")
    helper = LayerHelper("reshape2", **locals())
    inputs, attrs = {"X": x}, {}
    if isinstance(shape, Variable):
        shape.stop_gradient = True
        inputs["Shape"] = shape
    else:
        if not shape:
            raise ValueError("The size of argument(shape) can't be zero.")
        attrs["shape"] = _reshape_attr(shape, len(x.shape))
        if any(isinstance(d, Variable) for d in shape):
            inputs["ShapeTensor"] = _int32_tensors(helper, shape)
        elif isinstance(actual_shape, Variable):
            actual_shape.stop_gradient = True
            inputs["Shape"] = actual_shape
        elif actual_shape is not None:
            raise TypeError("actual_shape should either be Variable or None.")
    out = x if inplace else helper.create_variable_for_type_inference(dtype=x.dtype)
    x_shape = helper.create_variable_for_type_inference(dtype=x.dtype)
    helper.append_op(type="reshape2", inputs=inputs, attrs=attrs,
                     outputs={"Out": out, "XShape": x_shape})
    return helper.append_activation(out)


def _reshape_attr(shape, rank):
    """reshape's `shape` attribute: -1 for a Variable dim; at most one -1,
    a 0 only where x has a dim, no other negative."""
    unknown = None
    attr = []
    for i, d in enumerate(shape):
        if isinstance(d, Variable):
            attr.append(-1)
            continue
        if d == -1:
            if unknown is not None:
                raise ValueError("Only one dimension in shape can be unknown (-1), but dims "
                                 "%d and %d are" % (unknown, i))
            unknown = i
        elif d == 0:
            if i >= rank:
                raise ValueError("The index of 0 in shape (%d) cannot exceed Rank(X) (%d)."
                                 % (i, rank))
        elif d < 0:
            raise ValueError("Each dimension size given in shape must not be negative except "
                             "one unknown dimension, but shape is %s" % (list(shape),))
        attr.append(d)
    return attr


def stack(x, axis=0):
    """The Variables of `x` (one shape) stacked along a new axis."""
    helper = LayerHelper("stack", **locals())
    if not isinstance(x, (list, tuple)):
        x = [x]
    if not x:
        raise ValueError("stack needs at least one Variable")
    for v in x:
        _check_var(v, "x", "stack")
    out = helper.create_variable_for_type_inference(x[0].dtype)
    helper.append_op(type="stack", inputs={"X": list(x)}, outputs={"Y": out},
                     attrs={"axis": 0 if axis is None else axis})
    return out


def unstack(x, axis=0, num=None):
    """`x` cut along `axis` into `num` Variables without that axis (1.x's
    layer, since 1.2): `num` defaults to the axis's size, which must then
    be known."""
    _check_var(x, "x", "unstack")
    helper = LayerHelper("unstack", **locals())
    if num is None:
        if axis is None or x.shape[axis] <= 0:
            raise ValueError('unknown unstack number')
        num = x.shape[axis]
    outs = [helper.create_variable_for_type_inference(x.dtype) for _ in range(num)]
    helper.append_op(type="unstack", inputs={"X": [x]}, outputs={"Y": outs},
                     attrs={"axis": axis, "num": num})
    return outs


def expand(x, expand_times, name=None):
    """`x` tiled `expand_times[i]` times along each dim i."""
    helper = LayerHelper("expand", **locals())
    _check_var(x, "x", "expand")
    if not isinstance(expand_times, (list, tuple, Variable)):
        raise TypeError("Input expand_times must be an Variable, python list or tuple.")
    inputs, attrs = {"X": x}, {}
    if isinstance(expand_times, Variable):
        expand_times.stop_gradient = True
        inputs["ExpandTimes"] = expand_times
    else:
        attrs["expand_times"] = [-1 if isinstance(t, Variable) else t for t in expand_times]
        if any(isinstance(t, Variable) for t in expand_times):
            inputs["expand_times_tensor"] = _int32_tensors(helper, expand_times)
    out = helper.create_variable_for_type_inference(x.dtype)
    helper.append_op(type="expand", inputs=inputs, outputs={"Out": out}, attrs=attrs)
    return out


def flatten(x, axis=1, name=None):
    """`x` as a matrix: the dims before `axis` make its rows, the rest its
    columns (`flatten2`, with its XShape)."""
    helper = LayerHelper("flatten", **locals())
    if not isinstance(x, Variable):
        raise ValueError("The input x should be a Variable")
    if isinstance(axis, bool) or not isinstance(axis, int) or not 0 <= axis <= len(x.shape):
        raise ValueError("The axis should be a int, and in range [0, rank(x)]: it is %r and x "
                         "is %s" % (axis, list(x.shape)))
    out = helper.create_variable_for_type_inference(x.dtype)
    x_shape = helper.create_variable_for_type_inference(x.dtype)
    helper.append_op(type="flatten2", inputs={"X": x}, outputs={"Out": out, "XShape": x_shape},
                     attrs={"axis": axis})
    return out


def transpose(x, perm, name=None):
    """`x` with its dims permuted by `perm` (`transpose2`, with its
    XShape)."""
    _check_var(x, "x", "transpose")
    rank = len(x.shape)
    if len(perm) != rank:
        raise ValueError("Input(perm) is the permutation of dimensions of Input(input). Its "
                         "length should be equal to Input(input)'s rank: perm is %s and x is %s"
                         % (list(perm), list(x.shape)))
    for idx, dim in enumerate(perm):
        if dim >= rank:
            raise ValueError("Each element in perm should be less than x's rank. %d-th element "
                             "in perm is %d which accesses x's rank %d." % (idx, dim, rank))
    helper = LayerHelper("transpose", **locals())
    out = helper.create_variable_for_type_inference(x.dtype)
    x_shape = helper.create_variable_for_type_inference(x.dtype)
    helper.append_op(type="transpose2", inputs={"X": [x]},
                     outputs={"Out": [out], "XShape": [x_shape]}, attrs={"axis": list(perm)})
    return out


def _squeeze_layer(layer, op_type, input, axes, name):
    helper = LayerHelper(layer, input=input, axes=axes, name=name)
    _check_var(input, "input", layer)
    if not isinstance(axes, (list, tuple)):
        raise TypeError("%s's axes must be a list or tuple of ints, not %s"
                        % (layer, type(axes).__name__))
    out = helper.create_variable_for_type_inference(dtype=input.dtype)
    x_shape = helper.create_variable_for_type_inference(dtype=input.dtype)
    helper.append_op(type=op_type, inputs={"X": input}, attrs={"axes": list(axes)},
                     outputs={"Out": out, "XShape": x_shape})
    return out


def squeeze(input, axes, name=None):
    """`input` without its dims of size 1 at `axes` (all of them for [])."""
    return _squeeze_layer("squeeze", "squeeze2", input, axes, name)


def unsqueeze(input, axes, name=None):
    """`input` with dims of size 1 inserted at `axes`."""
    return _squeeze_layer("unsqueeze", "unsqueeze2", input, axes, name)


def split(input, num_or_sections, dim=-1, name=None):
    """`input` cut along `dim` into `num_or_sections` equal pieces, or
    pieces of the sizes listed (one may be -1)."""
    helper = LayerHelper("split", **locals())
    _check_var(input, "input", "split")
    input_shape = input.shape
    rank = len(input_shape)
    axis = dim + rank if dim < 0 else dim
    if not 0 <= axis < rank:
        raise ValueError("split's dim %d is out of range for rank %d" % (dim, rank))
    if isinstance(num_or_sections, int) and not isinstance(num_or_sections, bool):
        if num_or_sections <= 1:
            raise ValueError("num_or_sections must be more than 1, but it is %d"
                             % num_or_sections)
        num, sections = num_or_sections, []
    elif isinstance(num_or_sections, (list, tuple)):
        if input_shape[axis] >= 0 and len(num_or_sections) > input_shape[axis]:
            raise ValueError("len(num_or_sections) must not be more than input.shape[dim]: "
                             "%d sections for a dim of %d"
                             % (len(num_or_sections), input_shape[axis]))
        num, sections = 0, list(num_or_sections)
    else:
        raise TypeError("num_or_sections must be an int or a list of ints, not %s"
                        % type(num_or_sections).__name__)
    sizes = _split_sizes(input_shape[axis], num, sections)
    outs = [helper.create_variable_for_type_inference(dtype=helper.input_dtype())
            for _ in sizes]
    helper.append_op(type="split", inputs={"X": input}, outputs={"Out": outs},
                     attrs={"num": num, "sections": sections, "axis": axis})
    # The op's definition gives one type per output slot, and the pieces
    # of a split differ, so each piece's shape is declared here.
    for out, size in zip(outs, sizes):
        piece = list(input_shape)
        piece[axis] = size
        out.shape = piece
    return outs


def _split_sizes(dim, num, sections):
    """The sizes of split's pieces of a dim of `dim` (-1: unknown)."""
    if num > 0:
        if dim >= 0 and dim % num != 0:
            raise ValueError("a dim of %d does not split into %d equal parts" % (dim, num))
        return [dim // num if dim >= 0 else -1] * num
    known, unknown = 0, 0
    for s in sections:
        if s < 0:
            unknown += 1
        else:
            known += s
    if unknown > 1:
        raise ValueError("split's sections %s have more than one -1" % (sections,))
    if dim < 0:
        return list(sections)
    if known > dim or (unknown == 0 and known != dim):
        raise ValueError("split's sections %s do not add up to the dim %d" % (sections, dim))
    return [dim - known if s < 0 else s for s in sections]


def slice(input, axes, starts, ends):
    """The box `starts[i]:ends[i]` along each axis `axes[i]` of `input`."""
    return _slice(input, list(axes), list(starts), list(ends), [])


def _slice(input, axes, starts, ends, decrease_axis):
    """The `slice` op into `slice_N.tmp_0` (what indexing a Variable
    builds too: `decrease_axis` drops the axes an int index picks)."""
    helper = LayerHelper("slice", input=input)
    _check_var(input, "input", "slice")
    if not len(axes) == len(starts) == len(ends):
        raise ValueError("slice needs as many starts and ends as axes: axes %s, starts %s, "
                         "ends %s" % (axes, starts, ends))
    out = helper.create_variable_for_type_inference(dtype=input.dtype)
    helper.append_op(type="slice", inputs={"Input": input}, outputs={"Out": out},
                     attrs={"axes": axes, "starts": starts, "ends": ends,
                            "infer_flags": [1] * len(axes), "decrease_axis": decrease_axis})
    return out


def shape(input):
    """The shape of `input` when the program runs, an int32 vector."""
    helper = LayerHelper("shape", **locals())
    _check_var(input, "input", "shape")
    out = helper.create_variable_for_type_inference(dtype="int32")
    helper.append_op(type="shape", inputs={"Input": input}, outputs={"Out": out})
    return out


def gather(input, index, overwrite=True):
    """The rows of `input` at `index`. `overwrite` (1.7) says how the
    gradient of a repeated index is made: the last row's (True, what 1.x's
    CPU kernel always did) or their sum (False, what Paddle 3.3.1 always
    does)."""
    helper = LayerHelper("gather", **locals())
    _check_var(input, "input", "gather")
    _check_var(index, "index", "gather")
    out = helper.create_variable_for_type_inference(helper.input_dtype())
    helper.append_op(type="gather", inputs={"X": input, "Index": index}, outputs={"Out": out},
                     attrs={"overwrite": overwrite})
    return out


def pad(x, paddings, pad_value=0.0, name=None):
    """`x` padded with `pad_value`: `paddings` gives the count before and
    after each dim, in order."""
    helper = LayerHelper("pad", input=x, **locals())
    _check_var(x, "x", "pad")
    out = helper.create_variable_for_type_inference(helper.input_dtype())
    helper.append_op(type="pad", inputs={"X": x}, outputs={"Out": out},
                     attrs={"paddings": list(paddings), "pad_value": float(pad_value)})
    return out
