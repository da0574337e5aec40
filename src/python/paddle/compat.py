"""paddle.compat: 1.x's Python 2/3 helpers, which 2018 scripts call, and
`xrange` for the Python 2 scripts that still use it (README, "Python: the VM")."""
import math

__all__ = ["long_type", "to_text", "to_bytes", "round", "floor_division",
           "get_exception_message"]

int_type = int
long_type = int


def _convert(obj, one, inplace):
    """`one` of `obj`, or of each item of a list or set (in place if asked),
    or of each key and value of a dict, as 1.x converted containers."""
    if obj is None:
        return obj
    if isinstance(obj, list):
        if inplace:
            obj[:] = [one(item) for item in obj]
            return obj
        return [one(item) for item in obj]
    if isinstance(obj, set):
        items = [one(item) for item in obj]
        if inplace:
            obj.clear()
            obj.update(items)
            return obj
        return set(items)
    if isinstance(obj, dict):
        converted = {one(k): one(v) for k, v in obj.items()}
        if inplace:
            obj.clear()
            obj.update(converted)
            return obj
        return converted
    return one(obj)


def to_text(obj, encoding="utf-8", inplace=False):
    """bytes as str (decoded with `encoding`); str and others as they are."""
    def one(x):
        return x.decode(encoding) if isinstance(x, bytes) else x
    return _convert(obj, one, inplace)


def to_bytes(obj, encoding="utf-8", inplace=False):
    """str as bytes (encoded with `encoding`); bytes and others as they are."""
    def one(x):
        return x.encode(encoding) if isinstance(x, str) else x
    return _convert(obj, one, inplace)


def round(x, d=0):
    """Python 2's round: halves away from zero, a float."""
    if x == 0.0:
        return math.copysign(0.0, x)
    p = 10 ** d
    if x > 0.0:
        return float(math.floor(x * p + 0.5)) / p
    return float(math.ceil(x * p - 0.5)) / p


def floor_division(x, y):
    return x // y


def get_exception_message(exc):
    assert exc is not None
    return str(exc)


def xrange(*args):
    """Python 2's `xrange`, which Python 3 calls `range`: installed as a
    builtin when `paddle` is imported, with a warning at each place that
    uses it."""
    import warnings
    warnings.warn("`xrange` is Python 2's; fluidc runs it as `range`", stacklevel=2)
    return range(*args)
