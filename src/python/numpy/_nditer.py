"""`numpy.nditer`, `numpy.ndenumerate` and `numpy.ndindex` (loaded on first
use by `numpy.__getattr__`).

fluidc's arrays are always C-contiguous, so the iterator's memory order
('K', 'A') is C order. An element is a 0-d array of the operand's dtype;
with a write flag ('readwrite', 'writeonly') writing into it (`x[...] = v`,
`x += v`, `out=x`) writes the operand at once, as numpy's element views do.
Flags and forms fluidc does not implement are a NotImplementedError, never
ignored.
"""
import builtins as _builtins

import _numpy
import numpy as _np

_GLOBAL_FLAGS = (
    "buffered", "c_index", "common_dtype", "copy_if_overlap", "delay_bufalloc", "external_loop",
    "f_index", "grow_inner", "multi_index", "ranged", "reduce_ok", "refs_ok", "zerosize_ok",
)
# Flags with no effect on fluidc's arrays (no object arrays, no other
# dtypes, no casting): accepting them changes nothing numpy would show.
_NO_EFFECT_FLAGS = ("refs_ok", "zerosize_ok", "buffered")
_OP_FLAGS = (
    "readonly", "readwrite", "writeonly", "no_broadcast", "contig", "aligned", "nbo", "copy",
    "updateifcopy", "no_subtype", "allocate", "arraymask", "writemasked", "virtual",
    "overlap_assume_elementwise", "writebackifcopy",
)
_UNSUPPORTED_OP_FLAGS = ("allocate", "arraymask", "writemasked", "virtual")
_CASTINGS = ("no", "equiv", "safe", "same_kind", "unsafe")
_BUFSIZE = 8192


def _unsupported(what):
    return NotImplementedError("fluidc's numpy.nditer does not support %s" % what)


def _shape_str(s):
    return "(" + ",".join(str(d) for d in s) + ("," if len(s) == 1 else "") + ")"


class _Element(_np.ndarray):
    """An element (a 0-d array) or an external-loop chunk an nditer hands
    out: writes go through to the operand when it is writable."""

    def _store(self):
        op = self._op
        if self._at is None:
            _numpy.setitem(op._h, Ellipsis, _numpy.reshape(self._h, op.shape))
        elif isinstance(self._at, slice):
            # A buffered chunk: the flat positions it covers.
            flat = _numpy.flatten(op._h)
            _numpy.setitem(flat._h, self._at, self)
            _numpy.setitem(op._h, Ellipsis, _numpy.reshape(flat._h, op.shape))
        else:
            _numpy.setitem(op._h, self._at, self)

    def __setitem__(self, key, value):
        if not self._writable:
            raise ValueError("assignment destination is read-only")
        _numpy.setitem(self._h, key, value)
        self._store()

    def fill(self, value):
        if not self._writable:
            raise ValueError("assignment destination is read-only")
        _numpy.fill(self._h, value)
        self._store()

    def sort(self, axis=-1, kind=None, order=None):
        if not self._writable:
            raise ValueError("sort array is read-only")
        _np.ndarray.sort(self, axis)
        self._store()


def _inplace(name):
    base = getattr(_np.ndarray, name)

    def method(self, other):
        if not self._writable:
            raise ValueError("output array is read-only")
        r = base(self, other)
        if r is self:
            self._store()
        return r

    method.__name__ = name
    return method


for _name in ("__iadd__", "__isub__", "__imul__", "__itruediv__", "__ifloordiv__", "__imod__",
              "__ipow__", "__iand__", "__ior__", "__ixor__"):
    setattr(_Element, _name, _inplace(_name))
del _name
# An element is a numpy.ndarray to the script (`type(x)` prints
# `<class 'numpy.ndarray'>`).
_Element.__name__ = "ndarray"
_Element.__qualname__ = "ndarray"
_Element.__module__ = "numpy"


def _element(op, at, writable, h):
    e = _builtins.object.__new__(_Element)
    e._h = h
    e._op = op
    e._at = at
    e._writable = writable
    return e


def _global_flags(flags):
    if flags is None:
        return ()
    if not isinstance(flags, (list, tuple)):
        raise ValueError("Iterator global flags must be a list or tuple of strings")
    out = []
    for f in flags:
        if not isinstance(f, str):
            raise TypeError("expected bytes, %s found" % type(f).__name__)
        if f not in _GLOBAL_FLAGS:
            raise ValueError('Unexpected iterator global flag "%s"' % f)
        if f not in ("c_index", "f_index", "multi_index", "external_loop") + _NO_EFFECT_FLAGS:
            raise _unsupported("the flag '%s'" % f)
        out.append(f)
    if "c_index" in out and "f_index" in out:
        raise ValueError("Iterator flags C_INDEX and F_INDEX cannot both be specified")
    if "external_loop" in out and ("c_index" in out or "f_index" in out or "multi_index" in out):
        raise ValueError(
            "Iterator flag EXTERNAL_LOOP cannot be used if an index or multi-index is being tracked")
    return tuple(out)


def _per_op_flags(flags):
    """One operand's flags: (writable, no_broadcast)."""
    mode = None
    for f in flags:
        if not isinstance(f, str):
            raise ValueError("op_flags must be a tuple or array of per-op flag-tuples")
        if f not in _OP_FLAGS:
            raise ValueError('Unexpected per-op iterator flag "%s"' % f)
        if f in _UNSUPPORTED_OP_FLAGS:
            raise _unsupported("the operand flag '%s'" % f)
        if f in ("readonly", "readwrite", "writeonly"):
            if mode is not None:
                raise ValueError("Only one of the iterator flags READWRITE, READONLY, and WRITEONLY "
                                 "may be specified for an operand")
            mode = f
    if mode is None:
        raise ValueError("None of the iterator flags READWRITE, READONLY, or WRITEONLY were "
                         "specified for an operand")
    return mode != "readonly", "no_broadcast" in flags


def _op_flags(op_flags, nop):
    if op_flags is None:
        return [(False, False)] * nop
    if not isinstance(op_flags, (list, tuple)):
        raise ValueError("op_flags must be a tuple or array of per-op flag-tuples")
    if all(isinstance(f, str) for f in op_flags):
        return [_per_op_flags(op_flags)] * nop
    if len(op_flags) != nop or not all(isinstance(f, (list, tuple)) for f in op_flags):
        raise ValueError("op_flags must be a tuple or array of per-op flag-tuples")
    return [_per_op_flags(f) for f in op_flags]


class nditer(object):
    """An iterator over one or more arrays (numpy's `nditer`), read-only by
    default, writing through with `op_flags=['readwrite']`."""

    def __init__(self, op, flags=None, op_flags=None, op_dtypes=None, order="K", casting="safe",
                 op_axes=None, itershape=None, buffersize=0):
        ops = _builtins.list(op) if isinstance(op, (list, tuple)) else [op]
        if not ops:
            raise ValueError("Must provide at least one operand")
        flags = _global_flags(flags)
        if order is None:
            order = "K"
        if order not in ("C", "F", "A", "K"):
            raise ValueError("order must be one of 'C', 'F', 'A', or 'K' (got %r)" % (order,))
        if casting not in _CASTINGS:
            raise ValueError("casting must be one of 'no', 'equiv', 'safe', 'same_kind', 'unsafe' "
                             "(got %r)" % (casting,))
        if op_axes is not None:
            raise _unsupported("op_axes")
        if itershape is not None:
            raise _unsupported("itershape")
        per_op = _op_flags(op_flags, len(ops))
        arrays = []
        for k, o in enumerate(ops):
            if o is None:
                raise _unsupported("allocating operands (None)")
            if isinstance(o, _np.ndarray) and getattr(o, "_s", None) is not None:
                raise _unsupported("arrays of str")
            if per_op[k][0] and not isinstance(o, _np.ndarray):
                raise TypeError("Iterator operand is flagged as writeable, but is an object which "
                                "cannot be written back to via WRITEBACKIFCOPY")
            arrays.append(o if isinstance(o, _np.ndarray) else _np.asarray(o))
        if op_dtypes is not None:
            dts = _builtins.list(op_dtypes) if isinstance(op_dtypes, (list, tuple)) else [op_dtypes] * len(ops)
            if len(dts) != len(ops):
                raise ValueError("op_dtypes must be a tuple/list matching the number of ops")
            for a, d in zip(arrays, dts):
                if d is not None and _np.dtype(d) != a.dtype:
                    raise _unsupported("op_dtypes that cast an operand (%s to %s)"
                                       % (a.dtype, _np.dtype(d)))
        shapes = [a.shape for a in arrays]
        ndim = _builtins.max(len(s) for s in shapes)
        shape = [1] * ndim
        for s in shapes:
            for i, d in enumerate(s):
                j = ndim - len(s) + i
                if shape[j] == 1:
                    shape[j] = d
                elif d != 1 and d != shape[j]:
                    raise ValueError("operands could not be broadcast together with shapes %s "
                                     % " ".join(_shape_str(x) for x in shapes))
        shape = tuple(shape)
        for a, (writable, no_broadcast) in zip(arrays, per_op):
            if (writable or no_broadcast) and a.shape != shape:
                raise ValueError("non-broadcastable %s operand with shape %s doesn't match the "
                                 "broadcast shape %s" % ("output" if writable else "input",
                                                         _shape_str(a.shape), _shape_str(shape)))
        size = 1
        for d in shape:
            size *= d
        if size == 0 and "zerosize_ok" not in flags:
            raise ValueError("Iteration of zero-sized operands is not enabled")
        self._chunk = 0
        if "external_loop" in flags:
            if len(ops) != 1:
                raise _unsupported("external_loop with more than one operand")
            if order == "F" and ndim > 1:
                raise _unsupported("external_loop in order 'F'")
            self._chunk = _builtins.max(size, 1)
            if "buffered" in flags:
                self._chunk = _builtins.min(self._chunk, buffersize if buffersize > 0 else _BUFSIZE)
        self._ops = arrays
        self._writable = [w for w, _ in per_op]
        self._flags = flags
        self._fortran = order == "F"
        self._shape = shape
        self._size = size
        self._pos = 0
        self._started = False
        self._closed = False

    # -- positions
    def _index_of(self, pos, fortran):
        idx = [0] * len(self._shape)
        axes = _builtins.range(len(self._shape))
        for i in (axes if fortran else reversed(axes)):
            d = self._shape[i]
            pos, idx[i] = divmod(pos, d)
        return tuple(idx)

    def _check_valid(self):
        if self._closed or self._pos >= self._size:
            raise ValueError("Iterator is past the end")

    def _operand(self, k):
        op = self._ops[k]
        writable = self._writable[k]
        if self._chunk:
            if self._chunk >= self._size:
                return _element(op, None, writable, _numpy.flatten(op._h)._h)
            at = slice(self._pos, _builtins.min(self._pos + self._chunk, self._size))
            return _element(op, at, writable, _numpy.getitem(_numpy.flatten(op._h)._h, at)._h)
        m = self._index_of(self._pos, self._fortran)
        at = tuple(0 if d == 1 else i for i, d in zip(m[len(m) - op.ndim:], op.shape))
        return _element(op, at, writable, _numpy.getitem(op._h, at + (Ellipsis,))._h)

    def _value(self):
        self._check_valid()
        if len(self._ops) == 1:
            return self._operand(0)
        return tuple(self._operand(k) for k in _builtins.range(len(self._ops)))

    def _step(self):
        return self._chunk or 1

    # -- the Python iterator protocol
    def __iter__(self):
        return self

    def __next__(self):
        if self._closed or self._pos >= self._size:
            raise StopIteration
        if self._started:
            self._pos += self._step()
            if self._pos >= self._size:
                raise StopIteration
        self._started = True
        return self._value()

    # -- numpy's methods and attributes
    def iternext(self):
        if self._closed or self._pos >= self._size:
            return False
        self._pos += self._step()
        return self._pos < self._size

    @property
    def finished(self):
        return not self._closed and self._pos >= self._size

    def reset(self):
        self._pos = 0
        self._started = False

    @property
    def value(self):
        return self._value()

    def __getitem__(self, i):
        if isinstance(i, slice):
            return tuple(self[k] for k in _builtins.range(*i.indices(len(self._ops))))
        if i < 0:
            i += len(self._ops)
        if not 0 <= i < len(self._ops):
            raise IndexError("Iterator operand index %d is out of bounds" % i)
        self._check_valid()
        return self._operand(i)

    def __len__(self):
        return len(self._ops)

    @property
    def nop(self):
        return len(self._ops)

    @property
    def operands(self):
        return tuple(self._ops)

    @property
    def dtypes(self):
        return tuple(a.dtype for a in self._ops)

    @property
    def itersize(self):
        return self._size

    @property
    def iterindex(self):
        self._check_valid()
        return self._pos

    @iterindex.setter
    def iterindex(self, value):
        if not 0 <= value < self._size:
            raise ValueError("Iterator iterindex %d is out of bounds" % value)
        if self._chunk and value % self._chunk:
            raise _unsupported("iterindex inside an external loop's chunk")
        self._pos = value

    @property
    def has_multi_index(self):
        return "multi_index" in self._flags

    @property
    def has_index(self):
        return "c_index" in self._flags or "f_index" in self._flags

    @property
    def multi_index(self):
        self._check_valid()
        if "multi_index" not in self._flags:
            raise ValueError("Iterator is not tracking a multi-index")
        return self._index_of(self._pos, self._fortran)

    @multi_index.setter
    def multi_index(self, value):
        if "multi_index" not in self._flags:
            raise ValueError("Iterator is not tracking a multi-index")
        value = tuple(value)
        if len(value) != len(self._shape):
            raise ValueError("multi-index must have length %d" % len(self._shape))
        pos = 0
        axes = _builtins.range(len(self._shape))
        for i in (reversed(axes) if self._fortran else axes):
            v = value[i]
            if not 0 <= v < self._shape[i]:
                raise IndexError("Iterator requested a multi-index out of bounds")
            pos = pos * self._shape[i] + v
        self._pos = pos

    @property
    def index(self):
        self._check_valid()
        if "c_index" not in self._flags and "f_index" not in self._flags:
            raise ValueError("Iterator does not have an index")
        m = self._index_of(self._pos, self._fortran)
        pos = 0
        axes = _builtins.range(len(self._shape))
        for i in (reversed(axes) if "f_index" in self._flags else axes):
            pos = pos * self._shape[i] + m[i]
        return pos

    @property
    def shape(self):
        if "multi_index" in self._flags:
            return self._shape
        if len(self._ops) == 1 and not self._fortran:
            return (self._size,) if self._shape else ()
        raise _unsupported(".shape without flags=['multi_index'] here (numpy reports its "
                           "internal coalesced axes)")

    @property
    def ndim(self):
        return len(self.shape)

    def close(self):
        self._closed = True

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


nditer.__module__ = "numpy"


class ndenumerate(object):
    """`(index, element)` pairs of an array in C order."""

    def __init__(self, arr):
        self._a = _np.asarray(arr)
        self._it = iter(ndindex(*self._a.shape))

    def __iter__(self):
        return self

    def __next__(self):
        i = next(self._it)
        return i, self._a[i]


ndenumerate.__module__ = "numpy"


class ndindex(object):
    """The index tuples of an array of the given shape, in C order."""

    def __init__(self, *shape):
        if len(shape) == 1 and isinstance(shape[0], tuple):
            shape = shape[0]
        self._shape = tuple(shape)
        self._it = None

    def __iter__(self):
        return self

    def __next__(self):
        if self._it is None:
            self._it = _indices(self._shape)
        return next(self._it)

    def ndincr(self):
        raise _unsupported("ndindex.ndincr (deprecated)")


ndindex.__module__ = "numpy"


def _indices(shape):
    for d in shape:
        if d == 0:
            return
    idx = [0] * len(shape)
    while True:
        yield tuple(idx)
        i = len(shape) - 1
        while i >= 0:
            idx[i] += 1
            if idx[i] < shape[i]:
                break
            idx[i] = 0
            i -= 1
        if i < 0:
            return
