"""Operators on Variables (`x + 1`, `x * y`, `x < 3`, `-x`), as 1.x's
`math_op_patch` builds them: `tmp_N` outputs, a `scale` for a number where
it can, a `fill_constant` tensor for other numbers."""
from .. import core
from .. import unique_name
from ..framework import Variable

_INTS = ("int8", "int16", "int32", "int64", "uint8")


def _is_int(var):
    from ..framework import convert_dtype
    return convert_dtype(var.dtype) in _INTS


def _tmp(block, dtype):
    return block.create_var(name=unique_name.generate_with_ignorable_key("tmp"), dtype=dtype,
                            persistable=False, stop_gradient=False)


def _append(block, op_type, inputs, out, attrs=None):
    block.append_op(type=op_type, inputs=inputs, outputs={"Out": [out]}, attrs=attrs or {})
    return out


def _scale(var, scale, bias):
    block = var.block.program.current_block()
    out = _tmp(block, var.dtype)
    return _append(block, "scale", {"X": [var]}, out,
                   {"scale": float(scale), "bias": float(bias), "bias_after_scale": True})


def _constant(var, value, shape):
    """A number as a `tmp_N` tensor of `var`'s dtype (`create_tensor`)."""
    from .tensor import _str_value
    block = var.block.program.current_block()
    out = _tmp(block, var.dtype)
    block.append_op(type="fill_constant", outputs={"Out": [out]},
                    attrs={"shape": list(shape), "dtype": var.dtype, "value": float(value),
                           "str_value": _str_value(value, var.dtype), "force_cpu": False})
    out.stop_gradient = True
    return out


def _axis(y):
    """1.x's axis for a Variable-Variable op: 0 when `y` has a batch dim
    first, else -1."""
    shape = y.shape
    return 0 if shape and shape[0] == -1 else -1


def _cast(var, dtype):
    from .tensor import cast
    return cast(var, dtype)


def _like(self, other):
    """`other` in `self`'s dtype: 1.x's math_op_patch cast the right-hand
    Variable of an operator to the left one's (`cast` into a `tmp_N`)."""
    return other if other.dtype == self.dtype else _astype(other, self.dtype)


def _binary(op_type, reverse=False, scalar=None):
    def method(self, other):
        if isinstance(other, Variable):
            other = _like(self, other)
            x, y = (other, self) if reverse else (self, other)
            block = self.block.program.current_block()
            out = _tmp(block, x.dtype)
            return _append(block, op_type, {"X": [x], "Y": [y]}, out, {"axis": _axis(y)})
        if isinstance(other, bool) or not isinstance(other, (int, float)):
            if hasattr(other, "__float__") and not isinstance(other, (list, tuple, dict, str)):
                other = float(other)
            else:
                return NotImplemented
        x = self
        if isinstance(other, float) and _is_int(x):
            x = _cast(x, "float32")
        if scalar is not None:
            sb = scalar(other, _is_int(x))
            if sb is not None:
                return _scale(x, sb[0], sb[1])
        shape = list(x.shape)
        const_shape = shape if reverse and all(d >= 0 for d in shape) else [1]
        c = _constant(x, other, const_shape)
        a, b = (c, x) if reverse else (x, c)
        block = self.block.program.current_block()
        out = _tmp(block, x.dtype)
        return _append(block, op_type, {"X": [a], "Y": [b]}, out, {"axis": _axis(b)})

    method.__name__ = op_type
    return method


def _compare(op_type):
    def method(self, other):
        if not isinstance(other, Variable):
            if isinstance(other, bool) or not isinstance(other, (int, float)):
                return NotImplemented
            other = _constant(self, other, [1])
        other = _like(self, other)
        block = self.block.program.current_block()
        out = block.create_var(name=unique_name.generate_with_ignorable_key("tmp"),
                               dtype=core.VarDesc.VarType.BOOL, persistable=False,
                               stop_gradient=False)
        return _append(block, op_type, {"X": [self], "Y": [other]}, out,
                       {"axis": -1, "force_cpu": False})

    method.__name__ = op_type
    return method


def _neg(self):
    return _scale(self, -1.0, 0.0)


def _astype(self, dtype):
    """`x.astype(dtype)`: a `cast` into a `tmp_N` variable, as 1.x's
    math_op_patch built it (not the cast layer's `cast_N.tmp_0`)."""
    block = self.block.program.current_block()
    out = _tmp(block, dtype)
    block.append_op(type="cast", inputs={"X": [self]}, outputs={"Out": [out]},
                    attrs={"in_dtype": self.dtype, "out_dtype": out.dtype})
    return out


def monkey_patch_variable():
    def add(n, integer):
        return (1.0, n)

    def sub(n, integer):
        return (1.0, -n)

    def rsub(n, integer):
        return (-1.0, n)

    def mul(n, integer):
        return (n, 0.0)

    def div(n, integer):
        if integer or n == 0:
            return None
        return (1.0 / n, 0.0)

    for name, op_type, reverse, scalar in (
            ("__add__", "elementwise_add", False, add),
            ("__radd__", "elementwise_add", True, add),
            ("__sub__", "elementwise_sub", False, sub),
            ("__rsub__", "elementwise_sub", True, rsub),
            ("__mul__", "elementwise_mul", False, mul),
            ("__rmul__", "elementwise_mul", True, mul),
            ("__truediv__", "elementwise_div", False, div),
            ("__rtruediv__", "elementwise_div", True, None),
            ("__div__", "elementwise_div", False, div),
            ("__rdiv__", "elementwise_div", True, None),
            ("__pow__", "elementwise_pow", False, None),
            ("__rpow__", "elementwise_pow", True, None),
            ("__floordiv__", "elementwise_floordiv", False, None),
            ("__mod__", "elementwise_mod", False, None)):
        setattr(Variable, name, _binary(op_type, reverse, scalar))
    for name, op_type in (("__lt__", "less_than"), ("__le__", "less_equal"),
                          ("__gt__", "greater_than"), ("__ge__", "greater_equal"),
                          ("__eq__", "equal"), ("__ne__", "not_equal")):
        setattr(Variable, name, _compare(op_type))
    Variable.__neg__ = _neg
    Variable.astype = _astype
    Variable.__hash__ = lambda self: id(self)
