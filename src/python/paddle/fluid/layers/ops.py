"""One-op activation and math layers (1.x's `layers/ops.py`): each takes
`x` (and `name`) and appends the op of its name, `X` to `Out`; the shrink
activations take their threshold, and `uniform_random` makes a tensor."""
from ..framework import convert_np_dtype_to_dtype_
from ..layer_helper import LayerHelper
from .nn import _check_var

_UNARY = [
    "sigmoid", "logsigmoid", "exp", "tanh", "tanh_shrink", "sqrt", "rsqrt",
    "abs", "ceil", "floor", "cos", "acos", "asin", "sin", "atan", "round",
    "reciprocal", "square", "softplus", "softsign", "relu", "log", "sign",
]

__all__ = list(_UNARY) + ["softshrink", "hard_shrink", "thresholded_relu", "uniform_random"]


def _unary(op_type):
    def layer(x, name=None):
        _check_var(x, "x", op_type)
        helper = LayerHelper(op_type, x=x, name=name)
        out = helper.create_variable_for_type_inference(dtype=x.dtype)
        helper.append_op(type=op_type, inputs={"X": x}, outputs={"Out": out})
        return out

    layer.__name__ = op_type
    layer.__doc__ = "The `%s` op of x." % op_type
    return layer


for _op in _UNARY:
    globals()[_op] = _unary(_op)


def _thresholded(op_type, x, attr, value, name=None):
    """A shrink activation: its threshold, when given, sets the op's
    attribute `attr` (else the op's default holds); `name` names the
    output `<name>.tmp_N`, as 1.0's generated layers took it."""
    _check_var(x, "x", op_type)
    helper = LayerHelper(op_type, x=x, name=name)
    out = helper.create_variable_for_type_inference(dtype=x.dtype)
    attrs = {} if value is None else {attr: value}
    helper.append_op(type=op_type, inputs={"X": x}, outputs={"Out": out}, attrs=attrs)
    return out


def softshrink(x, alpha=None, name=None):
    return _thresholded("softshrink", x, "lambda", alpha, name)


def hard_shrink(x, threshold=None, name=None):
    return _thresholded("hard_shrink", x, "threshold", threshold, name)


def thresholded_relu(x, threshold=None, name=None):
    return _thresholded("thresholded_relu", x, "threshold", threshold, name)


def uniform_random(shape, dtype="float32", min=-1.0, max=1.0, seed=0):
    """A `shape` tensor of U(min, max) draws (seed 0: a fresh seed per
    run)."""
    if not isinstance(shape, (list, tuple)):
        raise TypeError("uniform_random's shape must be a list or tuple, not %s"
                        % type(shape).__name__)
    dtype = convert_np_dtype_to_dtype_(dtype)
    helper = LayerHelper("uniform_random", shape=shape, dtype=dtype)
    out = helper.create_variable_for_type_inference(dtype)
    helper.append_op(type="uniform_random", outputs={"Out": out},
                     attrs={"shape": [int(d) for d in shape], "dtype": dtype,
                            "min": float(min), "max": float(max), "seed": seed})
    return out


__all__ += ["cumsum"]


def cumsum(x, axis=None, exclusive=None, reverse=None):
    """The running sum of `x` along `axis` (the last by default), exclusive
    of each element or not, and from the end when `reverse`; the arguments
    left None keep the op's defaults (1.x's generated layer)."""
    _check_var(x, "x", "cumsum")
    helper = LayerHelper("cumsum", x=x)
    out = helper.create_variable_for_type_inference(dtype=x.dtype)
    attrs = {}
    for attr, value in (("axis", axis), ("exclusive", exclusive), ("reverse", reverse)):
        if value is not None:
            attrs[attr] = value
    helper.append_op(type="cumsum", inputs={"X": x}, outputs={"Out": out}, attrs=attrs)
    return out
