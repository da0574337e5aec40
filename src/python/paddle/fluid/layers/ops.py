"""One-op activation and math layers (1.x's `layers/ops.py`): each takes
`x` (and `name`) and appends the op of its name, `X` to `Out`."""
from ..layer_helper import LayerHelper

_UNARY = [
    "sigmoid", "logsigmoid", "exp", "tanh", "tanh_shrink", "sqrt", "rsqrt",
    "abs", "ceil", "floor", "cos", "acos", "asin", "sin", "atan", "round",
    "reciprocal", "square", "softplus", "softsign", "relu", "log", "sign",
]

__all__ = list(_UNARY)


def _unary(op_type):
    def layer(x, name=None):
        helper = LayerHelper(op_type, x=x, name=name)
        out = helper.create_variable_for_type_inference(dtype=x.dtype)
        helper.append_op(type=op_type, inputs={"X": x}, outputs={"Out": out})
        return out

    layer.__name__ = op_type
    layer.__doc__ = "The `%s` op of x." % op_type
    return layer


for _op in _UNARY:
    globals()[_op] = _unary(_op)
