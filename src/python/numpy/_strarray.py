"""Arrays of str (numpy's `<U` dtypes), as vocabulary and text-parsing
scripts use them: made from str values (`np.array(words)`,
`astype(str)`), printed, indexed, assigned, compared, sorted, made unique,
joined and converted back to numbers. Loaded on first use by the numpy
package.

An array keeps its strings in a flat list `_s` in C order, its shape in
`_shape` and its width (the n of `<Un`) in `_n`. Indexing, reshaping and
joining run on an int64 array of positions into that list, so they follow
numpy's rules (and errors) exactly (`_listarray.py`, shared with object
arrays, as is printing). Like fluidc's other arrays, a part taken out of
an array is a copy. What numpy computes on strings beyond that (sums,
`np.char`, ufuncs) is a clear TypeError.
"""
import builtins as _builtins

import numpy as _np
from numpy import _listarray as _la

# The width numpy gives a number converted to str, by dtype.
_NUMBER_WIDTH = {"bool": 5, "int32": 11, "int64": 21, "longlong": 21, "float32": 32, "float64": 32}


def _dtype_of(n):
    return _np.dtype("U%d" % n)


def _no(name, dt):
    return TypeError("fluidc's numpy has no %s for arrays of str (dtype(%r))" % (name, dt.str))


class _StrArray(_la._ListArray):
    """An array of str: a _ListArray whose values are str of at most `_n`
    characters."""

    @property
    def dtype(self):
        return _dtype_of(self._n)

    @property
    def itemsize(self):
        return 4 * self._n

    def _new(self, strs, shape):
        return _make(strs, shape, self._n)

    # One string taken out of an array is numpy's str_.
    _element = _np.str_
    _element_text = staticmethod(repr)

    @property
    def _dtype_text(self):
        return "dtype=%r" % self.dtype.str

    def _numbers_only(self):
        return TypeError("fluidc's numpy computes with arrays of numbers, not with arrays of str "
                         "(dtype(%r))" % self.dtype.str)

    def _no_method(self, name):
        return _no(name, self.dtype)

    def _no_argument(self, name):
        return NotImplementedError("fluidc's numpy has no %s for arrays of str" % name)

    # -- conversions
    def astype(self, dtype, order="K", casting="unsafe", subok=True, copy=True):
        name = _np.dtype(dtype)._name
        if name[0] == "U":
            n = _builtins.int(name[1:])
            if n == 0:
                n = self._n
            return _make([x[:n] for x in self._s], self._shape, n)
        return _to_numbers([_np.str_(x) for x in self._s], self._shape, name)

    def item(self, *args):
        # A plain str, where indexing gives a str_.
        return _builtins.str(_la._ListArray.item(self, *args))

    # -- sorting
    def argsort(self, axis=-1, kind=None, order=None):
        return _argsort(self, axis)

    def sort(self, axis=-1, kind=None, order=None):
        r = _sort(self, axis)
        self._s = r._s

    # -- Python protocols
    def __setitem__(self, key, value):
        pos = self._positions()[key]
        if isinstance(pos, _np.ndarray):
            shape = pos.shape
            pos = pos.ravel().tolist()
        else:
            shape = ()
            pos = [_builtins.int(pos)]
        v = _as_strarray(value)
        vals = _la.spread(v._s, v.shape, shape)
        n = self._n
        s = self._s
        for p, x in zip(pos, vals):
            s[p] = x[:n]

    def __contains__(self, value):
        return _builtins.bool(self.__eq__(value).any())

    def __reduce__(self):
        raise NotImplementedError("fluidc's numpy does not pickle arrays of str")

    # -- comparisons and concatenation
    def __eq__(self, other):
        return _compare(self, other, "==")

    def __ne__(self, other):
        return _compare(self, other, "!=")

    def __lt__(self, other):
        return _compare(self, other, "<")

    def __le__(self, other):
        return _compare(self, other, "<=")

    def __gt__(self, other):
        return _compare(self, other, ">")

    def __ge__(self, other):
        return _compare(self, other, ">=")

    def __add__(self, other):
        return _concat_elements(self, other)

    def __radd__(self, other):
        return _concat_elements(other, self)


_CMP = {
    "==": lambda a, b: a == b, "!=": lambda a, b: a != b, "<": lambda a, b: a < b,
    "<=": lambda a, b: a <= b, ">": lambda a, b: a > b, ">=": lambda a, b: a >= b,
}
_UFUNC_NAME = {"==": "equal", "!=": "not_equal", "<": "less", "<=": "less_equal",
               ">": "greater", ">=": "greater_equal"}


# Every other ndarray method computes with numbers: on an array of str it is
# a TypeError naming it.
_la.finish(_StrArray)


def _make(strs, shape, n):
    a = _builtins.object.__new__(_StrArray)
    a._s = strs
    a._shape = tuple(shape)
    a._n = n
    a._ia = None
    return a


# ---------------------------------------------------------------- making arrays


def _number_text(x):
    """A number as numpy writes it into a str array, and the width numpy
    gives that dtype."""
    if isinstance(x, _builtins.bool):
        return _builtins.str(x), 5
    if isinstance(x, _builtins.int):
        return _builtins.str(x), 21
    if isinstance(x, _builtins.float) and not isinstance(x, _np.generic):
        return repr(x), 32
    if isinstance(x, _np.generic):
        name = x.dtype._name
        if name in _NUMBER_WIDTH:
            return _builtins.str(x), _NUMBER_WIDTH[name]
    raise TypeError("fluidc's numpy makes arrays of numbers or of str, not of %s"
                    % type(x).__name__)


def _discover(obj):
    """(shape, complete, leaves): numpy's shape discovery over nested lists
    and tuples; leaves are in C order when the shape is complete."""
    if isinstance(obj, _builtins.str):
        return (), True, [obj]
    if isinstance(obj, _StrArray):
        return obj._shape, True, _builtins.list(obj._s)
    if isinstance(obj, _np.ndarray):
        flat = obj.ravel()
        return obj.shape, True, [flat[i] for i in _builtins.range(flat.size)]
    if isinstance(obj, (list, tuple)):
        parts = [_discover(x) for x in obj]
        if not parts:
            return (0,), True, []
        shapes = [p[0] for p in parts]
        common = _la.common_shape(shapes)
        complete = all(p[1] for p in parts) and all(s == shapes[0] for s in shapes)
        leaves = []
        if complete:
            for p in parts:
                leaves.extend(p[2])
        return (len(obj),) + tuple(common), complete, leaves
    return (), True, [obj]


def _inhomogeneous(shape):
    return ValueError(
        "setting an array element with a sequence. The requested array has an inhomogeneous "
        "shape after %d dimensions. The detected shape was %s + inhomogeneous part."
        % (len(shape), "(" + ", ".join(_builtins.str(d) for d in shape) + ("," if len(shape) == 1 else "") + ")"))


def _texts(leaves):
    """The leaves as strings, and the width numpy gives them."""
    out = []
    width = 1
    for x in leaves:
        if isinstance(x, _builtins.str):
            x = _builtins.str.__str__(x)
            if len(x) > width:
                width = len(x)
        else:
            x, w = _number_text(x)
            if w > width:
                width = w
        out.append(x)
    return out, width


def _parse(x, name):
    """A str leaf as a number of dtype `name` (numpy's string to number
    cast); numbers pass through."""
    if not isinstance(x, _builtins.str):
        return x
    if name == "bool":
        return len(x) > 0
    if name in ("int32", "int64", "longlong"):
        return _builtins.int(x)
    return _builtins.float(x)


def _to_numbers(leaves, shape, name):
    vals = [_parse(x, name) for x in leaves]
    return _np.array(vals, name).reshape(shape)


def array(obj, name, ndmin=0):
    """`np.array(obj, dtype)` where `obj` holds str values or `name` (the
    dtype's name, or None) is a str dtype."""
    if isinstance(obj, _StrArray):
        a = obj.copy() if name is None else obj.astype(name)
        if ndmin and a.ndim < ndmin:
            a = a.reshape((1,) * (ndmin - a.ndim) + a.shape)
        return a
    shape, complete, leaves = _discover(obj)
    if not complete:
        raise _inhomogeneous(shape)
    if name is not None and name[0] != "U":
        a = _to_numbers(leaves, shape, name)
    else:
        texts, width = _texts(leaves)
        if name is not None and name != "U0":
            width = _builtins.int(name[1:])
            texts = [x[:width] for x in texts]
        a = _make(texts, shape, width)
    if ndmin and a.ndim < ndmin:
        a = a.reshape((1,) * (ndmin - a.ndim) + a.shape)
    return a


def has_str(obj):
    """Whether a value handed to np.array holds str values."""
    if isinstance(obj, (_builtins.str, _StrArray)):
        return True
    if isinstance(obj, (list, tuple)):
        return any(has_str(x) for x in obj)
    return False


def _as_strarray(value):
    if isinstance(value, _StrArray):
        return value
    return array(value, None)


def from_numbers(a, name):
    """`a.astype(str)` of an array or numpy scalar of numbers."""
    flat = _np.asarray(a).ravel()
    texts = [_builtins.str(flat[i]) for i in _builtins.range(flat.size)]
    width = _NUMBER_WIDTH.get(a.dtype._name, 32)
    n = _builtins.int(name[1:]) or width
    r = _make([x[:n] for x in texts], a.shape, n)
    return r[()] if isinstance(a, _np.generic) else r


def full(shape, fill_value, name):
    """`np.zeros/np.empty/np.full(shape, fill_value, dtype=str)`."""
    text, width = _texts([fill_value])
    text = text[0]
    if name is not None and name != "U0":
        width = _builtins.int(name[1:])
    n = _builtins.max(width, 1)
    size = _np.zeros(shape, "bool").shape
    return _make([text[:n]] * _la.count(size), size, n)


# ---------------------------------------------------------------- operations


def _pair(a, b):
    """The strings of `a` and `b` broadcast together, and their shape."""
    return _la.pair(a._s, a._shape, b._s, b._shape)


def _result(values, shape, dt):
    if not shape:
        return _np.bool_(values[0]) if dt == "bool" else values[0]
    return _np.array(values, dt).reshape(shape)


def _compare(a, other, op):
    f = _CMP[op]
    if isinstance(other, _builtins.str):
        return _result([f(x, other) for x in a._s], a._shape, "bool")
    if isinstance(other, _StrArray) or has_str(other):
        xs, ys, shape = _pair(a, _as_strarray(other))
        return _result([f(x, y) for x, y in zip(xs, ys)], shape, "bool")
    if op in ("==", "!="):
        # A str never equals a number, as in numpy.
        shape = _np.shape(_np.zeros(a._shape, "bool") == _np.asarray(other)) if other is not None else a._shape
        return _result([op == "!="] * _la.count(shape), shape, "bool")
    raise TypeError("ufunc '%s' did not contain a loop with signature matching types "
                    "(dtype(%r), %s) -> None" % (_UFUNC_NAME[op], a.dtype.str, type(other).__name__))


def _concat_elements(x, y):
    """`x + y` of strings element by element (numpy 2's string add)."""
    if not (isinstance(x, (_builtins.str, _StrArray)) or has_str(x)) or not (
            isinstance(y, (_builtins.str, _StrArray)) or has_str(y)):
        other = y if isinstance(x, _StrArray) else x
        raise TypeError("ufunc 'add' did not contain a loop with signature matching types "
                        "(str, %s) -> None" % type(other).__name__)
    a, b = _as_strarray(x), _as_strarray(y)
    xs, ys, shape = _pair(a, b)
    r = _make([p + q for p, q in zip(xs, ys)], shape, a._n + b._n)
    return r[()] if not shape else r


def combine(fn, arrays):
    """`fn` (a function of position arrays: concatenate, stack, where) run
    on str arrays: each array's positions are offset into one joined list
    of strings."""
    strs = []
    positions = []
    n = 1
    for x in arrays:
        a = _as_strarray(x)
        positions.append(a._positions() + len(strs))
        strs.extend(a._s)
        n = _builtins.max(n, a._n)
    pos = fn(positions)
    return _make([strs[i] for i in pos.ravel().tolist()], pos.shape, n)


def _lanes(a, axis):
    """The positions of `a` with `axis` moved last, as a list of lanes."""
    ia = a._positions()
    if axis is None:
        return ia.ravel(), [ia.ravel().tolist()], None
    axis = axis + a.ndim if axis < 0 else axis
    if not 0 <= axis < a.ndim:
        raise _np.AxisError(axis, a.ndim)
    moved = _np.moveaxis(ia, axis, -1)
    n = moved.shape[-1] if moved.ndim else 1
    return moved, moved.reshape(-1, n).tolist() if moved.size else [], axis


def _argsort(a, axis=-1):
    a = _as_strarray(a)
    if a.ndim == 0:
        return _np.zeros((), "int64") if axis is None else _np.argsort(_np.zeros(()), axis)
    moved, lanes, axis = _lanes(a, axis)
    s = a._s
    out = [sorted(_builtins.range(len(lane)), key=lambda j, lane=lane: s[lane[j]]) for lane in lanes]
    r = _np.array(out, "int64").reshape(moved.shape)
    return r if axis is None else _np.moveaxis(r, -1, axis)


def _sort(a, axis=-1):
    a = _as_strarray(a)
    if a.ndim == 0 and axis is not None:
        return _np.sort(_np.zeros(()), axis)
    moved, lanes, axis = _lanes(a, axis)
    s = a._s
    pos = [sorted(lane, key=s.__getitem__) for lane in lanes]
    r = _np.array(pos, "int64").reshape(moved.shape)
    return a._gather(r if axis is None else _np.moveaxis(r, -1, axis))


def sort(a, axis=-1):
    return _sort(a, axis)


def argsort(a, axis=-1):
    return _argsort(a, axis)


def unique(ar, return_index=False, return_inverse=False, return_counts=False):
    a = _as_strarray(ar)
    s = a._s
    # Count first: only the distinct strings are sorted.
    counts = {}
    first = {}
    for i, x in enumerate(s):
        if x in counts:
            counts[x] += 1
        else:
            counts[x] = 1
            first[x] = i
    values = sorted(counts)
    u = _make(values, (len(values),), a._n)
    if not (return_index or return_inverse or return_counts):
        return u
    out = [u]
    if return_index:
        out.append(_np.array([first[x] for x in values], "int64"))
    if return_inverse:
        rank = {x: k for k, x in enumerate(values)}
        out.append(_np.array([rank[x] for x in s], "int64").reshape(a._shape))
    if return_counts:
        out.append(_np.array([counts[x] for x in values], "int64"))
    return tuple(out)

