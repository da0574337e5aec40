"""Object arrays (numpy's dtype('O')), as 2018-19 scripts met them: numpy
1.x made one, silently, from a ragged list (`np.array([[1, 2, 3], [4,
5]])`, or `np.array(trainer.test(...))` of `[np.float32, array([x])]`),
and from `dtype=object`. Loaded on first use by the numpy package.

An array keeps its elements (any Python objects) in a flat list `_s` in C
order and its shape in `_shape`. Indexing, reshaping and broadcasting run
on an int64 array of positions into that list, so they follow numpy's
rules (and errors) (`_listarray.py`, shared with arrays of str, as is
printing). Arithmetic and comparisons apply Python's operators to
the elements, as numpy's object loops do; `sum` adds the elements in order
and `mean` is numpy 1.x's `_mean` over that sum. What else numpy computes
on object arrays is a clear TypeError.
"""
import builtins as _builtins
import operator as _operator
import warnings as _warnings

import numpy as _np
from numpy import _listarray as _la

_DTYPE = _np.dtype("O")


def _no(name):
    return TypeError("fluidc's numpy has no %s for object arrays (dtype('O'))" % name)


def _numbers_only():
    return TypeError("fluidc's numpy computes with arrays of numbers; this is an object array "
                     "(dtype('O')), which it only indexes, prints, adds, compares, sums and "
                     "converts with astype")


def _element_text(x):
    """numpy's `_object_format`: lists say so; everything else is its repr."""
    if type(x) is list:
        return "list(%r)" % (x,)
    return repr(x)


class _ObjArray(_la._ListArray):
    """An array of Python objects: a _ListArray whose values are anything."""

    _is_object = True

    @property
    def dtype(self):
        return _DTYPE

    @property
    def itemsize(self):
        return 8

    def _new(self, elements, shape):
        return _make(elements, shape)

    @staticmethod
    def _element(x):
        # One element taken out of an array is the object itself.
        return x

    _element_text = staticmethod(_element_text)
    _dtype_text = "dtype=object"

    def _numbers_only(self):
        return _numbers_only()

    def _no_method(self, name):
        return _no(name)

    def _no_argument(self, name):
        return _no(name)

    # -- conversions
    def astype(self, dtype, order="K", casting="unsafe", subok=True, copy=True):
        name = _np.dtype(dtype)._name
        if name == "object":
            return self.copy()
        if name[0] == "U":
            raise TypeError("fluidc's numpy does not convert object arrays to str (astype(%r))"
                            % (_np.dtype(dtype),))
        return _to_numbers(self._s, self._shape, name)

    def __deepcopy__(self, memo):
        import copy
        return _make([copy.deepcopy(x, memo) for x in self._s], self._shape)

    def fill(self, value):
        self._s = [value] * len(self._s)

    def __float__(self):
        return _builtins.float(self._one())

    def __int__(self):
        return _builtins.int(self._one())

    def _one(self):
        if len(self._s) != 1:
            # numpy's error for an array that is not one element.
            _np.zeros(self._shape).__float__()
        return self._s[0]

    # -- Python protocols
    def __iter__(self):
        # A vector yields its elements themselves.
        if len(self._shape) == 1:
            return iter(_builtins.list(self._s))
        return _la._ListArray.__iter__(self)

    def __setitem__(self, key, value):
        pos = self._positions()[key]
        s = self._s
        if not isinstance(pos, _np.ndarray):
            # One element: it holds the value itself, whatever it is.
            s[_builtins.int(pos)] = value
            return
        vals, vshape = _operand(value)
        vals = _la.spread(vals, vshape, pos.shape)
        for p, x in zip(pos.ravel().tolist(), vals):
            s[p] = x

    def __contains__(self, value):
        return _builtins.any(_builtins.bool(x) for x in _as_list(self.__eq__(value)))

    def __reduce__(self):
        raise TypeError("fluidc's numpy does not pickle object arrays (dtype('O'))")

    # -- reductions
    def sum(self, axis=None, dtype=None, out=None, keepdims=False, initial=None, where=True):
        _only_defaults("sum", dtype=dtype, out=out, initial=initial, where=where)
        return _sum(self, axis, keepdims)

    def mean(self, axis=None, dtype=None, out=None, keepdims=False, where=True):
        _only_defaults("mean", dtype=dtype, out=out, where=where)
        return _mean(self, axis, keepdims)

    def _reduce(self, name, axis, keepdims, dt):
        if name == "sum":
            return self.sum(axis, dt, keepdims=keepdims)
        if name == "mean":
            return self.mean(axis, dt, keepdims=keepdims)
        raise _no(name)


def _only_defaults(name, **kwargs):
    for k, v in kwargs.items():
        if v is not None and not (k == "where" and v is True):
            raise _no("%s(%s=)" % (name, k))


# ---------------------------------------------------------------- operators

def _binary(op):
    def method(self, other):
        return _elementwise(op, self, other)

    def rmethod(self, other):
        return _elementwise(op, other, self)

    def imethod(self, other):
        r = _elementwise(op, self, other)
        if not isinstance(r, _ObjArray):
            r = _make([r], ())
        if r._shape != self._shape:
            raise ValueError("non-broadcastable output operand with shape %s doesn't match the "
                             "broadcast shape %s" % (_la.shape_str(self._shape), _la.shape_str(r._shape)))
        self._s = r._s
        return self
    return method, rmethod, imethod


for _name, _op in (("add", _operator.add), ("sub", _operator.sub), ("mul", _operator.mul),
                   ("truediv", _operator.truediv), ("floordiv", _operator.floordiv),
                   ("mod", _operator.mod), ("pow", _operator.pow), ("and", _operator.and_),
                   ("or", _operator.or_), ("xor", _operator.xor), ("lshift", _operator.lshift),
                   ("rshift", _operator.rshift)):
    _m, _r, _i = _binary(_op)
    for _prefix, _f in (("", _m), ("r", _r), ("i", _i)):
        _f.__name__ = "__%s%s__" % (_prefix, _name)
        setattr(_ObjArray, _f.__name__, _f)


def _comparison(op):
    def method(self, other):
        return _compare(op, self, other)
    return method


for _name, _op in (("eq", _operator.eq), ("ne", _operator.ne), ("lt", _operator.lt),
                   ("le", _operator.le), ("gt", _operator.gt), ("ge", _operator.ge)):
    _f = _comparison(_op)
    _f.__name__ = "__%s__" % _name
    setattr(_ObjArray, _f.__name__, _f)


def _unary(op):
    def method(self):
        return _make([op(x) for x in self._s], self._shape) if self._shape else op(self._s[0])
    return method


for _name, _op in (("neg", _operator.neg), ("pos", _operator.pos), ("abs", _operator.abs),
                   ("invert", _operator.invert)):
    _f = _unary(_op)
    _f.__name__ = "__%s__" % _name
    setattr(_ObjArray, _f.__name__, _f)


# Every other ndarray method computes with numbers: on an object array it
# is a TypeError naming it.
_la.finish(_ObjArray, ("__array_namespace__",))
del _name, _op, _f, _m, _r, _i, _prefix


def _defer(method):
    def wrapped(self, other):
        if isinstance(other, _ObjArray):
            return NotImplemented
        return method(self, other)
    wrapped.__name__ = method.__name__
    return wrapped


# numpy's scalars give way to an object array (which then applies the
# operator to its elements), as numpy's ufuncs pick the object loop.
for _name in ("add", "sub", "mul", "truediv", "floordiv", "mod", "pow", "and", "or", "xor",
              "lshift", "rshift", "eq", "ne", "lt", "le", "gt", "ge"):
    for _prefix in ("", "r"):
        if _prefix and _name in ("eq", "ne", "lt", "le", "gt", "ge"):
            continue
        _dunder = "__%s%s__" % (_prefix, _name)
        _v = _np.generic.__dict__.get(_dunder)
        if _v is not None:
            setattr(_np.generic, _dunder, _defer(_v))
del _name, _prefix, _dunder, _v


def _make(elements, shape):
    a = _builtins.object.__new__(_ObjArray)
    a._s = elements
    a._shape = tuple(shape)
    a._ia = None
    return a


def _as_list(x):
    if isinstance(x, _np.ndarray):
        return x.ravel().tolist()
    return [x]


# ---------------------------------------------------------------- making arrays


def _discover(obj):
    """The shape numpy gives `obj` as an object array: lists, tuples and
    arrays nest as far as their lengths agree."""
    if isinstance(obj, _np.ndarray):
        return obj.shape
    if isinstance(obj, (list, tuple)):
        shapes = [_discover(x) for x in obj]
        if not shapes:
            return (0,)
        return (len(obj),) + tuple(_la.common_shape(shapes))
    return ()


def _elements(obj):
    """A numpy array's elements as numpy casts them to objects."""
    if isinstance(obj, _ObjArray):
        return _builtins.list(obj._s)
    if obj._s is not None:
        return [_builtins.str.__str__(x) for x in obj._s]
    return obj.ravel().tolist()


def _leaves(obj, shape, depth, out):
    if depth == len(shape):
        out.append(obj)
    elif isinstance(obj, _np.ndarray):
        if obj.shape != shape[depth:]:
            raise ValueError("could not broadcast input array from shape %s into shape %s"
                             % (_la.shape_str(obj.shape), _la.shape_str(shape[depth:])))
        out.extend(_elements(obj))
    else:
        for x in obj:
            _leaves(x, shape, depth + 1, out)


def has_objects(obj):
    """Whether a list or tuple handed to np.array holds object arrays."""
    if isinstance(obj, (list, tuple)):
        return any(isinstance(x, _ObjArray) or has_objects(x) for x in obj)
    return False


def array(obj, ndmin=0):
    """`np.array(obj, dtype=object)`, and numpy 1.x's `np.array(obj)` of a
    ragged `obj`."""
    if isinstance(obj, _np.ndarray) and obj.ndim == 0 and not isinstance(obj, _ObjArray):
        a = _make(_elements(obj), ())
    else:
        shape = _discover(obj)
        out = []
        _leaves(obj, shape, 0, out)
        a = _make(out, shape)
    if ndmin and a.ndim < ndmin:
        a = a.reshape((1,) * (ndmin - a.ndim) + a.shape)
    return a


def from_numbers(a):
    """`a.astype(object)` of a numpy array or scalar (a scalar gives its
    Python number, as a 0-d result of numpy's does)."""
    if isinstance(a, _np.generic):
        return a.item()
    return _make(_elements(a), a.shape)


def full(shape, fill_value):
    """`np.zeros/np.ones/np.empty/np.full(shape, fill_value, dtype=object)`."""
    size = _np.zeros(shape, "bool").shape
    return _make([fill_value] * _la.count(size), size)


def _number(x, name):
    """One element cast to dtype `name`, as numpy's object casts do."""
    if name in ("float32", "float64"):
        if x is None:
            return _builtins.float("nan")
        if isinstance(x, (list, tuple)) or (isinstance(x, _np.ndarray) and x.size != 1):
            raise ValueError("setting an array element with a sequence.")
        if isinstance(x, _np.ndarray):
            # numpy 1.x: an array of one element converts to its number.
            x = x.ravel().tolist()[0]
        return _builtins.float(x)
    if name == "bool":
        return _builtins.bool(x)
    if isinstance(x, _np.ndarray) and x.size == 1:
        x = x.ravel().tolist()[0]
    return _builtins.int(x)


def _to_numbers(elements, shape, name):
    if name in ("float16", "complex64", "complex128"):
        raise TypeError("fluidc's numpy has no arrays of dtype '%s'" % name)
    vals = [_number(x, name) for x in elements]
    return _np.array(vals, name).reshape(shape)


# ---------------------------------------------------------------- operations


def _operand(x):
    """(elements, shape) of an operand, cast to objects as numpy's object
    loops cast it."""
    if isinstance(x, _ObjArray):
        return x._s, x._shape
    if isinstance(x, _np.ndarray):
        return _elements(x), x.shape
    if isinstance(x, _np.generic):
        return [x.item()], ()
    if isinstance(x, (list, tuple)):
        return _operand(_np.asarray(x))
    return [x], ()


def _pair(a, b):
    xs, xshape = _operand(a)
    ys, yshape = _operand(b)
    return _la.pair(xs, xshape, ys, yshape)


def _elementwise(op, a, b):
    xs, ys, shape = _pair(a, b)
    vals = [op(x, y) for x, y in zip(xs, ys)]
    if not shape:
        return vals[0]
    return _make(vals, shape)


def _compare(op, a, b):
    xs, ys, shape = _pair(a, b)
    vals = [_builtins.bool(op(x, y)) for x, y in zip(xs, ys)]
    if not shape:
        return _np.bool_(vals[0])
    return _np.array(vals, "bool").reshape(shape)


def _fold(values):
    """numpy's add.reduce over objects: the elements added in order."""
    if not values:
        return 0
    r = values[0]
    for v in values[1:]:
        r = r + v
    return r


def _axes(a, axis):
    if axis is None:
        return None
    if isinstance(axis, tuple):
        if len(axis) != 1:
            raise _no("sum/mean over several axes")
        axis = axis[0]
    axis = _builtins.int(axis)
    n = a.ndim
    if not -n <= axis < n:
        raise _np.AxisError(axis, n)
    return axis + n if axis < 0 else axis


def _sum(a, axis, keepdims):
    axis = _axes(a, axis)
    if axis is None:
        r = _fold(a._s)
        if keepdims:
            return _make([r], (1,) * a.ndim)
        return r
    moved = _np.moveaxis(a._positions(), axis, -1)
    n = a._shape[axis]
    shape = moved.shape[:-1]
    if n == 0:
        vals = [0] * _la.count(shape)
    else:
        s = a._s
        vals = [_fold([s[i] for i in lane]) for lane in moved.reshape(-1, n).tolist()]
    if keepdims:
        shape = a._shape[:axis] + (1,) + a._shape[axis + 1:]
    if not shape:
        return vals[0]
    return _make(vals, shape)


def _mean(a, axis, keepdims):
    """numpy 1.14-1.16's `_mean`: the sum divided by the count (a Python
    int), an array sum divided in place in its own dtype."""
    ax = _axes(a, axis)
    count = a.size if ax is None else a._shape[ax]
    if count == 0:
        _warnings.warn("Mean of empty slice.", RuntimeWarning, stacklevel=3)
    ret = _sum(a, axis, keepdims)
    if isinstance(ret, _ObjArray):
        return _elementwise(_operator.truediv, ret, count)
    if isinstance(ret, _np.ndarray):
        return (ret / count).astype(ret.dtype)
    if hasattr(ret, "dtype") and isinstance(ret, _np.generic):
        return ret.dtype.type(ret / count)
    return ret / count


def reduce(name, a, axis, keepdims, dt):
    """The module's reductions (np.sum, np.mean, ...) of an object array."""
    return a._reduce(name, axis, keepdims, dt)
