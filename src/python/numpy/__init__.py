"""numpy, as fluidc runs it (docs/numpy.md).

The arrays are `_numpy` handles (src/numpy/), whose semantics are
numpy 2's: seven dtypes (bool, int8, uint8, int32, int64, float32, float64), NEP 50
promotion, broadcasting, indexing, reductions and numpy's printing.
`ndarray` wraps one handle in `_h`; numpy scalars (`np.float32(1.5)`, an
element, a full reduction) wrap a 0-d handle. Other dtypes (int16,
float16, ...) exist as dtype objects and types, and making arrays of them
is a TypeError. Arrays of str (`<Un`) are Python (`_strarray.py`), and
`nditer`, `ndenumerate`, `ndindex` are in `_nditer.py`; both load on
first use.
"""
import builtins as _builtins
import operator as _operator
import math as _math
import numbers as _numbers

import _numpy

__version__ = "2.4.6"

_HOST_DTYPES = ("bool", "int8", "uint8", "int32", "int64", "float32", "float64", "longlong")

# name: (kind, itemsize, char, str)
_DTYPE_INFO = {
    "bool": ("b", 1, "?", "|b1"),
    "int8": ("i", 1, "b", "|i1"),
    "int16": ("i", 2, "h", "<i2"),
    "int32": ("i", 4, "i", "<i4"),
    "int64": ("i", 8, "l", "<i8"),
    # numpy's other int64, `long long` (char `q`): what Paddle's int64
    # tensors convert to. Its arrays print `dtype=int64` in their repr.
    "longlong": ("i", 8, "q", "<i8"),
    "uint8": ("u", 1, "B", "|u1"),
    "uint16": ("u", 2, "H", "<u2"),
    "uint32": ("u", 4, "I", "<u4"),
    "uint64": ("u", 8, "L", "<u8"),
    "float16": ("f", 2, "e", "<f2"),
    "float32": ("f", 4, "f", "<f4"),
    "float64": ("f", 8, "d", "<f8"),
    "complex64": ("c", 8, "F", "<c8"),
    "complex128": ("c", 16, "D", "<c16"),
    # Object arrays (numpy/_objarray.py).
    "object": ("O", 8, "O", "|O"),
}

_DTYPE_ALIASES = {
    "bool_": "bool", "?": "bool", "b1": "bool", "|b1": "bool",
    "int8": "int8", "i1": "int8", "byte": "int8", "|i1": "int8", "b": "int8",
    "int16": "int16", "i2": "int16", "<i2": "int16", "h": "int16", "short": "int16",
    "int32": "int32", "i4": "int32", "<i4": "int32", "i": "int32", "intc": "int32",
    "int64": "int64", "i8": "int64", "<i8": "int64", "l": "int64", "int": "int64",
    "int_": "int64", "intp": "int64", "long": "int64", "longlong": "longlong", "q": "longlong",
    "uint8": "uint8", "u1": "uint8", "B": "uint8", "ubyte": "uint8", "|u1": "uint8",
    "uint16": "uint16", "u2": "uint16", "H": "uint16", "<u2": "uint16", "ushort": "uint16",
    "uint32": "uint32", "u4": "uint32", "I": "uint32", "<u4": "uint32", "uintc": "uint32",
    "uint64": "uint64", "u8": "uint64", "L": "uint64", "<u8": "uint64", "uint": "uint64",
    "uintp": "uint64", "ulong": "uint64",
    "float16": "float16", "f2": "float16", "e": "float16", "half": "float16", "<f2": "float16",
    "float32": "float32", "f4": "float32", "<f4": "float32", "f": "float32", "single": "float32",
    "float64": "float64", "f8": "float64", "<f8": "float64", "d": "float64", "float": "float64",
    "double": "float64", "float_": "float64",
    "complex64": "complex64", "c8": "complex64", "F": "complex64", "csingle": "complex64",
    "complex128": "complex128", "c16": "complex128", "D": "complex128", "complex": "complex128",
    "cdouble": "complex128",
    "O": "object", "|O": "object", "object_": "object",
}

_DTYPE_CACHE = {}


class dtype(object):
    """A data type. Built-in dtypes are singletons, as in numpy."""

    def __new__(cls, obj=None, align=False, copy=False):
        name = _dtype_name(obj)
        d = _DTYPE_CACHE.get(name)
        if d is None:
            d = object.__new__(cls)
            d._name = name
            _DTYPE_CACHE[name] = d
        return d

    @property
    def name(self):
        if self._name[0] == "U":
            # numpy names str dtypes by their bits: `<U2` is 'str64'.
            n = 32 * _builtins.int(self._name[1:])
            return "str%d" % n if n else "str"
        return "int64" if self._name == "longlong" else self._name

    @property
    def kind(self):
        return _DTYPE_INFO[self._name][0]

    @property
    def itemsize(self):
        return _DTYPE_INFO[self._name][1]

    @property
    def alignment(self):
        return 4 if self._name[0] == "U" else _DTYPE_INFO[self._name][1]

    @property
    def char(self):
        return _DTYPE_INFO[self._name][2]

    @property
    def str(self):
        return _DTYPE_INFO[self._name][3]

    @property
    def byteorder(self):
        return "|" if _DTYPE_INFO[self._name][1] == 1 or self._name == "object" else "="

    @property
    def type(self):
        if self._name == "object":
            return object_
        return str_ if self._name[0] == "U" else _SCALAR_TYPE_BY_NAME[self._name]

    @property
    def descr(self):
        return [("", self.str)]

    @property
    def shape(self):
        return ()

    @property
    def ndim(self):
        return 0

    @property
    def names(self):
        return None

    @property
    def fields(self):
        return None

    @property
    def subdtype(self):
        return None

    @property
    def base(self):
        return self

    @property
    def isbuiltin(self):
        return 1

    @property
    def isnative(self):
        return True

    @property
    def hasobject(self):
        return self._name == "object"

    def newbyteorder(self, new_order="S"):
        return self

    def __eq__(self, other):
        if isinstance(other, dtype):
            return self.name == other.name
        try:
            return self.name == dtype(other).name
        except TypeError:
            return False

    def __ne__(self, other):
        return not self.__eq__(other)

    def __hash__(self):
        return _builtins.hash(("numpy.dtype", self.name))

    def __repr__(self):
        if self._name == "U0":
            return "dtype('<U')"
        if self._name == "object":
            return "dtype('O')"
        return "dtype('%s')" % self.__str__()

    def __str__(self):
        return self.str if self._name[0] == "U" else self.name

    def __reduce__(self):
        return (dtype, (self._name,))

    def __setstate__(self, state):
        """What numpy's pickles give a dtype after `dtype(name, align,
        copy)`: `(version, byteorder, subdtype, names, fields, elsize,
        alignment, flags[, metadata])`. Built-in dtypes are singletons and
        native-endian here, so the state is only checked."""
        if not isinstance(state, tuple) or len(state) < 8:
            raise ValueError("invalid input for dtype.__setstate__")
        order = state[1]
        if isinstance(order, _builtins.bytes):
            order = order.decode("latin1")
        if state[2] is not None or state[3] is not None:
            raise TypeError("fluidc's numpy has no structured or sub-array dtypes")
        if order == ">" and self.itemsize > 1:
            raise TypeError("fluidc's numpy has no big-endian dtypes ('>%s')" % self.str[1:])

    def __copy__(self):
        return self

    def __deepcopy__(self, memo):
        return self


def _dtype_name(obj):
    """The canonical numpy name of a dtype-like object."""
    if obj is None:
        return "float64"
    if isinstance(obj, dtype):
        return obj._name
    if isinstance(obj, _builtins.bytes):
        # numpy takes a dtype's name as bytes too (Python 2 pickles).
        obj = obj.decode("latin1")
    if isinstance(obj, _builtins.str):
        name = _DTYPE_ALIASES.get(obj)
        if name is None and obj in _DTYPE_INFO:
            name = obj
        if name is None:
            name = _str_dtype_name(obj)
        if name is None:
            raise TypeError("data type %r not understood" % (obj,))
        return name
    if isinstance(obj, type):
        if obj is _builtins.str or obj is str_:
            return "U0"
        if obj is _builtins.bytes:
            raise TypeError("fluidc's numpy has no arrays of bytes (dtype 'S')")
        if obj is _builtins.object:
            return "object"
        name = obj.__dict__.get("_dtype_name") if hasattr(obj, "__dict__") else None
        if name is None:
            for klass in obj.__mro__:
                name = klass.__dict__.get("_dtype_name")
                if name is not None:
                    break
        if name is not None:
            return name
        if obj is _builtins.float:
            return "float64"
        if obj is _builtins.bool:
            return "bool"
        if obj is _builtins.int:
            return "int64"
        if obj is _builtins.complex:
            return "complex128"
        if issubclass(obj, generic):
            raise TypeError("Converting '%s' to a dtype is not supported" % obj.__name__)
        raise TypeError("Cannot interpret '%r' as a data type" % (obj,))
    d = getattr(obj, "dtype", None)
    if isinstance(d, dtype):
        return d._name
    raise TypeError("Cannot interpret '%r' as a data type" % (obj,))


def _str_dtype_name(s):
    """The name of a str dtype spelled `U`, `<U5`, `str`, ..., or None."""
    if s in ("str", "unicode", "str_"):
        return "U0"
    t = s[1:] if s[:1] in ("<", "=", "|") else s
    if t[:1] == "U" and (t[1:] == "" or t[1:].isdigit()):
        n = _builtins.int(t[1:] or "0")
        name = "U%d" % n
        if name not in _DTYPE_INFO:
            _DTYPE_INFO[name] = ("U", 4 * n, "U", "<U%d" % n)
        return name
    if t[:1] in ("S", "a") and (t[1:] == "" or t[1:].isdigit()) or s in ("bytes", "bytes_"):
        raise TypeError("fluidc's numpy has no arrays of bytes (dtype %r)" % s)
    return None


def _host(d):
    """The dtype name fluidc's arrays take, or None for numpy's default."""
    if d is None:
        return None
    return _host_name(_dtype_name(d))


def _host_name(name):
    """`_host` of a canonical dtype name (or None)."""
    if name is None or name in _HOST_DTYPES:
        return name
    if name[0] == "U":
        raise TypeError("fluidc's numpy makes arrays of str (dtype %r) only from str values "
                        "(np.array, np.zeros, np.full, astype), not here" % dtype(name).str)
    if name not in _HOST_DTYPES:
        raise TypeError(
            "fluidc's numpy has no arrays of dtype '%s' (it has bool, int8, uint8, int32, int64, float32 and float64)"
            % name)
    return name


# ---------------------------------------------------------------- scalars

_binop = _numpy.binop
_inplace = _numpy.inplace
_ufunc1 = _numpy.ufunc1
_ufunc2 = _numpy.ufunc2


def _scalar_new(cls, value):
    name = cls._dtype_name
    if name not in _HOST_DTYPES:
        raise TypeError(
            "fluidc's numpy has no %s scalars (it has bool, int32, int64, float32 and float64)" % name)
    if isinstance(value, _builtins.str):
        if name == "bool":
            value = _builtins.bool(value)
        elif name.startswith("int"):
            value = _builtins.int(value)
        else:
            value = _builtins.float(value)
    return _numpy.scalar(value, name)


class generic(object):
    """The base of numpy's scalar types; an instance holds a 0-d handle."""

    __array_priority__ = -1000000.0

    def __new__(cls, *args, **kwargs):
        if "_dtype_name" not in cls.__dict__:
            raise TypeError("cannot create '%s.%s' instances" % (cls.__module__, cls.__name__))
        return _scalar_new(cls, args[0] if args else 0)

    @classmethod
    def _from_h(cls, h):
        o = object.__new__(cls)
        o._h = h
        return o

    # -- attributes
    @property
    def dtype(self):
        return _DTYPE_CACHE[self._h.dtype]

    @property
    def shape(self):
        return ()

    @property
    def ndim(self):
        return 0

    @property
    def size(self):
        return 1

    @property
    def itemsize(self):
        return _DTYPE_INFO[self._h.dtype][1]

    @property
    def nbytes(self):
        return _DTYPE_INFO[self._h.dtype][1]

    @property
    def T(self):
        return self

    @property
    def real(self):
        return self

    @property
    def imag(self):
        return _wrap_scalar(_numpy.array(0, self._h.dtype)._h)

    @property
    def flat(self):
        return _flatiter(self._arr())

    def _arr(self):
        return ndarray._wrap_plain(self._h)

    def item(self, *args):
        return _numpy.item(self._h, _builtins.list(args))

    def tolist(self):
        return _numpy.tolist(self._h)

    def __array__(self, dtype=None, copy=None):
        a = _numpy.copy(self._h)
        return a if dtype is None else a.astype(dtype)

    def astype(self, dtype, order="K", casting="unsafe", subok=True, copy=True):
        name = _dtype_name(dtype)
        if name[0] == "U":
            return _strings().from_numbers(self, name)
        if name == "object":
            return _objects().from_numbers(self)
        return _wrap_scalar(_numpy.astype(self._h, _host_name(name))._h)

    def copy(self, order="C"):
        return self

    def view(self, *args):
        raise NotImplementedError("fluidc's numpy has no views of other dtypes")

    def reshape(self, *shape, **kwargs):
        return self._arr().reshape(*shape, **kwargs)

    def flatten(self, order="C"):
        return self._arr().flatten()

    def ravel(self, order="C"):
        return self._arr().ravel()

    def squeeze(self, axis=None):
        return self._arr().squeeze(axis)

    def transpose(self, *axes):
        return self

    def sum(self, *args, **kwargs):
        return self._arr().sum(*args, **kwargs)

    def mean(self, *args, **kwargs):
        return self._arr().mean(*args, **kwargs)

    def max(self, *args, **kwargs):
        return self._arr().max(*args, **kwargs)

    def min(self, *args, **kwargs):
        return self._arr().min(*args, **kwargs)

    def prod(self, *args, **kwargs):
        return self._arr().prod(*args, **kwargs)

    def std(self, *args, **kwargs):
        return self._arr().std(*args, **kwargs)

    def var(self, *args, **kwargs):
        return self._arr().var(*args, **kwargs)

    def argmax(self, *args, **kwargs):
        return self._arr().argmax(*args, **kwargs)

    def argmin(self, *args, **kwargs):
        return self._arr().argmin(*args, **kwargs)

    def any(self, *args, **kwargs):
        return self._arr().any(*args, **kwargs)

    def all(self, *args, **kwargs):
        return self._arr().all(*args, **kwargs)

    def round(self, decimals=0, out=None):
        return _numpy.round(self, decimals)

    def clip(self, min=None, max=None, out=None, **kwargs):
        return _numpy.clip(self, min, max)

    def cumsum(self, *args, **kwargs):
        return self._arr().cumsum(*args, **kwargs)

    def nonzero(self):
        return self._arr().nonzero()

    def fill(self, value):
        raise AttributeError("'%s' object attribute 'fill' is read-only" % type(self).__name__)

    # -- conversions and printing
    def __bool__(self):
        return _numpy.truthy(self._h)

    def __float__(self):
        return _numpy.to_float(self._h)

    def __int__(self):
        return _numpy.to_int(self._h)

    def __complex__(self):
        return _builtins.complex(_numpy.to_float(self._h))

    def __hash__(self):
        return _builtins.hash(_numpy.item(self._h, []))

    def __repr__(self):
        return _numpy.format(self._h, "scalar_repr")

    def __str__(self):
        return _numpy.format(self._h, "scalar_str")

    def __format__(self, spec):
        v = _numpy.item(self._h, [])
        if spec and v is True or v is False and spec:
            # CPython formats a bool with a format spec as the int it is.
            v = _builtins.int(v)
        return _builtins.format(v, spec)

    def __round__(self, ndigits=None):
        if ndigits is None:
            return _builtins.round(_numpy.item(self._h, []))
        return _numpy.round(self, ndigits)

    def __reduce__(self):
        return (type(self), (_numpy.item(self._h, []),))

    def __copy__(self):
        return self

    def __deepcopy__(self, memo):
        return self

    def __getitem__(self, key):
        if isinstance(key, tuple) and not key:
            return self
        return _numpy.getitem(self._h, key)

    def __array_namespace__(self):
        import numpy
        return numpy

    # -- operators
    def __add__(self, other):
        return _binop("add", self, other)

    def __radd__(self, other):
        return _binop("add", other, self)

    def __sub__(self, other):
        return _binop("subtract", self, other)

    def __rsub__(self, other):
        return _binop("subtract", other, self)

    def __mul__(self, other):
        if isinstance(other, (list, tuple, _builtins.str, _builtins.bytes)):
            # numpy's `gentype_multiply`: an integer repeats a sequence.
            return _repeat(other, self)
        return _binop("multiply", self, other)

    def __rmul__(self, other):
        if isinstance(other, (list, tuple, _builtins.str, _builtins.bytes)):
            return _repeat(other, self)
        return _binop("multiply", other, self)

    def __truediv__(self, other):
        return _binop("divide", self, other)

    def __rtruediv__(self, other):
        return _binop("divide", other, self)

    def __floordiv__(self, other):
        return _binop("floor_divide", self, other)

    def __rfloordiv__(self, other):
        return _binop("floor_divide", other, self)

    def __mod__(self, other):
        return _binop("remainder", self, other)

    def __rmod__(self, other):
        return _binop("remainder", other, self)

    def __divmod__(self, other):
        q = _binop("floor_divide", self, other)
        if q is NotImplemented:
            return q
        return (q, _binop("remainder", self, other))

    def __rdivmod__(self, other):
        q = _binop("floor_divide", other, self)
        if q is NotImplemented:
            return q
        return (q, _binop("remainder", other, self))

    def __pow__(self, other, mod=None):
        return _binop("power", self, other)

    def __rpow__(self, other, mod=None):
        return _binop("power", other, self)

    def __and__(self, other):
        return _binop("bitwise_and", self, other)

    def __rand__(self, other):
        return _binop("bitwise_and", other, self)

    def __or__(self, other):
        return _binop("bitwise_or", self, other)

    def __ror__(self, other):
        return _binop("bitwise_or", other, self)

    def __xor__(self, other):
        return _binop("bitwise_xor", self, other)

    def __rxor__(self, other):
        return _binop("bitwise_xor", other, self)

    def __lshift__(self, other):
        return _binop("left_shift", self, other)

    def __rlshift__(self, other):
        return _binop("left_shift", other, self)

    def __rshift__(self, other):
        return _binop("right_shift", self, other)

    def __rrshift__(self, other):
        return _binop("right_shift", other, self)

    def __eq__(self, other):
        return _binop("equal", self, other)

    def __ne__(self, other):
        return _binop("not_equal", self, other)

    def __lt__(self, other):
        return _binop("less", self, other)

    def __le__(self, other):
        return _binop("less_equal", self, other)

    def __gt__(self, other):
        return _binop("greater", self, other)

    def __ge__(self, other):
        return _binop("greater_equal", self, other)

    def __neg__(self):
        return _ufunc1("negative", self)

    def __pos__(self):
        return _ufunc1("positive", self)

    def __abs__(self):
        return _ufunc1("absolute", self)

    def __invert__(self):
        return _ufunc1("invert", self)


def _repeat(seq, x):
    if x._h.dtype in ("int32", "int64", "longlong", "bool"):
        return seq * _numpy.item(x._h, [])
    raise TypeError("can't multiply sequence by non-int of type 'numpy.%s'" % type(x).__name__)


class number(generic):
    pass


class integer(number):
    def __index__(self):
        return _numpy.to_index(self._h)

    def is_integer(self):
        return True

    @property
    def numerator(self):
        return self

    @property
    def denominator(self):
        return 1


class signedinteger(integer):
    pass


class unsignedinteger(integer):
    pass


class inexact(number):
    pass


class floating(inexact):
    def is_integer(self):
        f = _numpy.to_float(self._h)
        return f == _math.floor(f) if _math.isfinite(f) else False

    def as_integer_ratio(self):
        return _numpy.to_float(self._h).as_integer_ratio()


class complexfloating(inexact):
    pass


# numpy's scalar types join the numbers ABCs, as numpy's numerictypes
# registers them (`isinstance(np.float32(1), numbers.Number)` is True; bool
# is none of them).
_numbers.Integral.register(integer)
_numbers.Complex.register(inexact)
_numbers.Real.register(floating)
_numbers.Number.register(number)


class bool_(generic):
    _dtype_name = "bool"


bool_.__name__ = "bool"
bool_.__qualname__ = "bool"


class int8(signedinteger):
    _dtype_name = "int8"


class int16(signedinteger):
    _dtype_name = "int16"


class int32(signedinteger):
    _dtype_name = "int32"


class int64(signedinteger):
    _dtype_name = "int64"


class longlong(signedinteger):
    """numpy's `long long` int64 scalars (elements of Paddle's int64
    arrays); they print as `np.int64(...)`."""
    _dtype_name = "longlong"


class uint8(unsignedinteger):
    _dtype_name = "uint8"


class uint16(unsignedinteger):
    _dtype_name = "uint16"


class uint32(unsignedinteger):
    _dtype_name = "uint32"


class uint64(unsignedinteger):
    _dtype_name = "uint64"


class float16(floating):
    _dtype_name = "float16"


class float32(floating):
    _dtype_name = "float32"


class float64(floating, _builtins.float):
    _dtype_name = "float64"

    def __new__(cls, *args, **kwargs):
        return _scalar_new(cls, args[0] if args else 0.0)

    @classmethod
    def _from_h(cls, h):
        o = _builtins.float.__new__(cls, _numpy.to_float(h))
        o._h = h
        return o


class complex64(complexfloating):
    _dtype_name = "complex64"


class complex128(complexfloating):
    _dtype_name = "complex128"


_SCALAR_TYPE_BY_NAME = {
    "bool": bool_, "int8": int8, "int16": int16, "int32": int32, "int64": int64, "longlong": longlong,
    "uint8": uint8, "uint16": uint16, "uint32": uint32, "uint64": uint64,
    "float16": float16, "float32": float32, "float64": float64,
    "complex64": complex64, "complex128": complex128,
}

for _n in _DTYPE_INFO:
    dtype(_n)
del _n

bool = bool_
int_ = int64
intc = int32
intp = int64
long = int64
short = int16
byte = int8
ubyte = uint8
ushort = uint16
uintc = uint32
uint = uint64
uintp = uint64
ulong = uint64
half = float16
single = float32
double = float64
float_ = float64
longdouble = float64
complex_ = complex128
cdouble = complex128
csingle = complex64
object_ = object


class str_(_builtins.str):
    """numpy's str scalar (an element of an array of str): a Python str
    that prints as numpy 2 prints it. (numpy's is also a `np.generic`;
    fluidc's is not.)"""

    def __repr__(self):
        return "np.str_(%s)" % _builtins.str.__repr__(self)

    def __str__(self):
        return _builtins.str.__str__(self)

    @property
    def dtype(self):
        return dtype("U%d" % len(self))

    @property
    def shape(self):
        return ()

    @property
    def ndim(self):
        return 0

    @property
    def size(self):
        return 1

    @property
    def itemsize(self):
        return 4 * len(self)

    def item(self):
        return _builtins.str.__str__(self)

    def tolist(self):
        return _builtins.str.__str__(self)


str_.__module__ = "numpy"
bytes_ = _builtins.bytes
# numpy 1.x's names of the two (keras 2.2's `pad_sequences` tests
# `np.issubdtype(dtype, np.unicode_)`).
unicode_ = str_
string_ = bytes_
# numpy 1.x's aliases of the Python types, which 2018 scripts use.
float = _builtins.float
int = _builtins.int
object = _builtins.object
str = _builtins.str
complex = _builtins.complex


def _wrap_scalar(h):
    return _SCALAR_TYPE_BY_NAME[h.dtype]._from_h(h)


# ---------------------------------------------------------------- ndarray

def _reduce(name, a, axis, keepdims, dt, ddof=0):
    if _isobj(a):
        return a._reduce(name, axis, keepdims, dt)
    try:
        return _numpy.reduce(name, a, axis, _builtins.bool(keepdims), _host(dt), ddof)
    except ValueError as e:
        # numpy 1.x: a ragged list is an object array (numpy/_objarray.py).
        if not (isinstance(a, (list, tuple)) and "inhomogeneous" in _builtins.str(e)):
            raise
    return _objects().array(a)._reduce(name, axis, keepdims, dt)


def _no_ranges(key):
    """`key` with each `range` an int64 array (numpy indexes with a range
    as with a list of its ints), or `key` itself when it has none."""
    if type(key) is _builtins.range:
        return array(_builtins.list(key), int64)
    if type(key) is _builtins.tuple and _builtins.any(type(k) is _builtins.range for k in key):
        return _builtins.tuple(_no_ranges(k) for k in key)
    return key


class ndarray(object):
    """An n-dimensional array (one `_numpy` handle in `_h`)."""

    __array_priority__ = 0.0
    # The strings of an array of str (numpy/_strarray.py), None otherwise.
    _s = None

    def __hash__(self):
        raise TypeError("unhashable type: 'numpy.ndarray'")

    def __getattr__(self, name):
        # Only for a name the class lacks: numpy's C type is named
        # 'numpy.ndarray' in the AttributeError a misspelt method raises.
        raise AttributeError("'numpy.ndarray' object has no attribute '%s'" % name, name=name, obj=self)

    def __new__(cls, shape, dtype=_builtins.float, buffer=None, offset=0, strides=None, order=None):
        if buffer is None:
            a = _numpy.zeros(shape, _host(dtype))
            return cls._wrap_plain(a._h)
        # An array over another array's elements (Paddle's maxout op test
        # regroups channels so): `shape` of them from `offset` bytes on.
        src = asarray(buffer)
        if strides is not None or _dtype_name(dtype) != src.dtype._name:
            raise NotImplementedError("fluidc's numpy makes an ndarray over a buffer only of "
                                      "the buffer's own dtype, without strides")
        shape = (shape,) if isinstance(shape, _builtins.int) else _builtins.tuple(shape)
        n = 1
        for d in shape:
            n *= _builtins.int(d)
        start = offset // src.itemsize
        if start + n > src.size:
            raise TypeError("buffer is too small for requested array")
        return src.reshape(-1)[start:start + n].reshape(shape)

    @classmethod
    def _wrap(cls, h):
        """An array over a Paddle tensor's handle (the fluid package's
        fetches): int64 is numpy's `long long` flavour there, as Paddle's
        tensors convert to numpy."""
        _numpy.mark_longlong(h)
        return cls._wrap_plain(h)

    @classmethod
    def _wrap_plain(cls, h):
        a = _builtins.object.__new__(cls)
        a._h = h
        return a

    # -- attributes
    @property
    def shape(self):
        return self._h.shape

    @shape.setter
    def shape(self, value):
        _numpy.set_shape(self._h, value)

    @property
    def dtype(self):
        return _DTYPE_CACHE[self._h.dtype]

    @property
    def ndim(self):
        return self._h.ndim

    @property
    def size(self):
        return self._h.size

    @property
    def itemsize(self):
        return _DTYPE_INFO[self._h.dtype][1]

    @property
    def nbytes(self):
        return self._h.size * _DTYPE_INFO[self._h.dtype][1]

    @property
    def strides(self):
        step = _DTYPE_INFO[self._h.dtype][1]
        out = []
        for d in reversed(self._h.shape):
            out.append(step)
            step *= d
        return tuple(reversed(out))

    @property
    def T(self):
        return _numpy.transpose(self._h, None)

    @property
    def mT(self):
        return swapaxes(self, -1, -2)

    @property
    def flat(self):
        return _flatiter(self)

    @property
    def real(self):
        return self

    @property
    def imag(self):
        return zeros_like(self)

    @property
    def base(self):
        return None

    @property
    def data(self):
        raise NotImplementedError("fluidc's arrays have no buffer")

    # -- conversions
    def __array__(self, dtype=None, copy=None):
        if dtype is None or _dtype_name(dtype) == self._h.dtype:
            return self
        return _numpy.astype(self._h, _host(dtype))

    def __array_namespace__(self):
        import numpy
        return numpy

    def astype(self, dtype, order="K", casting="unsafe", subok=True, copy=True):
        name = _dtype_name(dtype)
        if name[0] == "U":
            return _strings().from_numbers(self, name)
        if name == "object":
            return _objects().from_numbers(self)
        return _numpy.astype(self._h, name if name in _HOST_DTYPES else _host_name(name))

    def tolist(self):
        return _numpy.tolist(self._h)

    def item(self, *args):
        return _numpy.item(self._h, _builtins.list(args))

    def copy(self, order="C"):
        return _numpy.copy(self._h)

    def view(self, dtype=None, type=None):
        if dtype is None or _dtype_name(dtype) == self._h.dtype:
            return ndarray._wrap_plain(self._h)
        raise NotImplementedError("fluidc's numpy has no views of other dtypes")

    def tobytes(self, order="C"):
        return _numpy.tobytes(self._h)

    def tofile(self, fid, sep="", format="%s"):
        """The elements in C order to `fid` (a path, or a file open for
        writing): raw bytes, or with `sep` text, `format % item` apart by
        `sep` (what `np.fromfile` reads back)."""
        if sep == "":
            data, mode = self.tobytes(), "wb"
        else:
            data, mode = sep.join(format % v for v in self.ravel().tolist()), "w"
        if hasattr(fid, "write"):
            fid.write(data)
        else:
            with open(fid, mode) as f:
                f.write(data)

    def reshape(self, *shape, order="C"):
        if len(shape) == 1:
            shape = shape[0]
        return _numpy.reshape(self._h, shape)

    def resize(self, *new_shape, refcheck=True):
        """In place, as numpy's: the elements in row-major order, cut to the
        new size or filled on with zeros (a 2018 GAN demo turns its fetched
        `[N, 784]` images into `[N, 28, 28]` so). fluidc's arrays keep no
        count of the views of them, so `refcheck` finds none to refuse."""
        if len(new_shape) == 1 and (new_shape[0] is None or isinstance(new_shape[0], (tuple, list))):
            new_shape = () if new_shape[0] is None else tuple(new_shape[0])
        if not new_shape and self.size == 1:
            new_shape = ()
        shape = tuple(_operator.index(d) for d in new_shape)
        if _builtins.any(d < 0 for d in shape):
            raise ValueError("negative dimensions not allowed")
        n = 1
        for d in shape:
            n *= d
        flat = self.ravel()
        if n <= flat.size:
            grown = flat[:n].copy()
        else:
            grown = concatenate([flat, zeros(n - flat.size, self.dtype)])
        self._h = grown.reshape(shape)._h

    def flatten(self, order="C"):
        return _numpy.flatten(self._h)

    def ravel(self, order="C"):
        return _numpy.ravel(self._h)

    def transpose(self, *axes):
        if len(axes) == 1 and (axes[0] is None or isinstance(axes[0], (tuple, list))):
            axes = axes[0]
        elif not axes:
            axes = None
        return _numpy.transpose(self._h, axes)

    def swapaxes(self, axis1, axis2):
        return swapaxes(self, axis1, axis2)

    def squeeze(self, axis=None):
        return _numpy.squeeze(self._h, axis)

    def fill(self, value):
        _numpy.fill(self._h, value)

    def sort(self, axis=-1, kind=None, order=None):
        _numpy.assign(self._h, _numpy.sort(self, axis)._h)

    def argsort(self, axis=-1, kind=None, order=None):
        return _numpy.argsort(self, axis)

    def argpartition(self, kth, axis=-1, kind="introselect", order=None):
        return argpartition(self, kth, axis, kind, order)

    def partition(self, kth, axis=-1, kind="introselect", order=None):
        _partition_checked(self, kth, axis, kind, order)
        self.sort(axis)

    def searchsorted(self, v, side="left", sorter=None):
        return searchsorted(self, v, side, sorter)

    def nonzero(self):
        return _numpy.nonzero(self)

    def repeat(self, repeats, axis=None):
        return repeat(self, repeats, axis)

    def take(self, indices, axis=None, out=None, mode="raise"):
        return take(self, indices, axis)

    def dot(self, b, out=None):
        return _numpy.dot(self, b)

    def round(self, decimals=0, out=None):
        return _numpy.round(self, decimals)

    def clip(self, min=None, max=None, out=None, **kwargs):
        return _numpy.clip(self, min, max)

    def cumsum(self, axis=None, dtype=None, out=None):
        return _numpy.cumulative("cumsum", self, axis, _host(dtype))

    def cumprod(self, axis=None, dtype=None, out=None):
        return _numpy.cumulative("cumprod", self, axis, _host(dtype))

    # -- reductions
    def sum(self, axis=None, dtype=None, out=None, keepdims=False, initial=None, where=True):
        return _reduce("sum", self, axis, keepdims, dtype)

    def prod(self, axis=None, dtype=None, out=None, keepdims=False, initial=None, where=True):
        return _reduce("prod", self, axis, keepdims, dtype)

    def mean(self, axis=None, dtype=None, out=None, keepdims=False, where=True):
        return _reduce("mean", self, axis, keepdims, dtype)

    def std(self, axis=None, dtype=None, out=None, ddof=0, keepdims=False, where=True):
        return _reduce("std", self, axis, keepdims, dtype, ddof)

    def var(self, axis=None, dtype=None, out=None, ddof=0, keepdims=False, where=True):
        return _reduce("var", self, axis, keepdims, dtype, ddof)

    def max(self, axis=None, out=None, keepdims=False, initial=None, where=True):
        return _reduce("max", self, axis, keepdims, None)

    def min(self, axis=None, out=None, keepdims=False, initial=None, where=True):
        return _reduce("min", self, axis, keepdims, None)

    def argmax(self, axis=None, out=None, keepdims=False):
        return _reduce("argmax", self, axis, keepdims, None)

    def argmin(self, axis=None, out=None, keepdims=False):
        return _reduce("argmin", self, axis, keepdims, None)

    def any(self, axis=None, out=None, keepdims=False, where=True):
        return _reduce("any", self, axis, keepdims, None)

    def all(self, axis=None, out=None, keepdims=False, where=True):
        return _reduce("all", self, axis, keepdims, None)

    def ptp(self, axis=None, out=None, keepdims=False):
        return _reduce("max", self, axis, keepdims, None) - _reduce("min", self, axis, keepdims, None)

    # -- Python protocols
    def __len__(self):
        shape = self._h.shape
        if not shape:
            raise TypeError("len() of unsized object")
        return shape[0]

    def __iter__(self):
        return iter(_numpy.rows(self._h))

    def __getitem__(self, key):
        try:
            return _numpy.getitem(self._h, key)
        except IndexError:
            plain = _no_ranges(key)
            if plain is key:
                raise
            return _numpy.getitem(self._h, plain)

    def __setitem__(self, key, value):
        try:
            _numpy.setitem(self._h, key, value)
        except IndexError:
            plain = _no_ranges(key)
            if plain is key:
                raise
            _numpy.setitem(self._h, plain, value)

    def __contains__(self, value):
        return _builtins.bool((self == value).any())

    def __bool__(self):
        return _numpy.truthy(self._h)

    def __float__(self):
        return _numpy.to_float(self._h)

    def __int__(self):
        return _numpy.to_int(self._h)

    def __index__(self):
        return _numpy.to_index(self._h)

    def __complex__(self):
        return _builtins.complex(_numpy.to_float(self._h))

    def __repr__(self):
        return _numpy.format(self._h, "repr", _popts)

    def __str__(self):
        return _numpy.format(self._h, "str", _popts)

    def __format__(self, spec):
        if self._h.ndim == 0:
            return _builtins.format(_numpy.item(self._h, []), spec)
        if spec == "":
            return _numpy.format(self._h, "str", _popts)
        raise TypeError("unsupported format string passed to numpy.ndarray.__format__")

    def __round__(self, ndigits=None):
        return _numpy.round(self, 0 if ndigits is None else ndigits)

    def __copy__(self):
        return _numpy.copy(self._h)

    def __deepcopy__(self, memo):
        return _numpy.copy(self._h)

    def __reduce__(self):
        return (_reconstruct, (_numpy.tolist(_numpy.flatten(self._h)._h), self._h.shape, self._h.dtype))

    def __setstate__(self, state):
        """numpy's array state: `([version,] shape, dtype, is_fortran,
        rawdata)`, what pickles of numpy arrays hold (after
        `numpy.core.multiarray._reconstruct`)."""
        if not isinstance(state, tuple) or len(state) not in (4, 5):
            raise ValueError("__setstate__ takes a tuple of 4 or 5 items")
        shape, dt, fortran, data = state[-4:]
        dt = dtype(dt)
        shape = tuple(_builtins.int(n) for n in shape)
        if isinstance(data, _builtins.list):
            raise TypeError("fluidc's numpy has no object arrays (dtype 'O'), which this "
                            "pickle holds")
        if isinstance(data, _builtins.str):
            data = data.encode("latin1")
        n = 1
        for d in shape:
            n *= d
        if len(data) < n * dt.itemsize:
            raise ValueError("buffer size does not match array size")
        if dt.kind == "U":
            raise TypeError("fluidc cannot unpickle numpy arrays of str (dtype %r)" % dt.str)
        a = frombuffer(data, dtype=dt, count=n).reshape(shape[::-1] if fortran else shape)
        if fortran:
            a = a.transpose()
        self._h = a.copy()._h

    # -- operators
    def __add__(self, other):
        return _binop("add", self, other)

    def __radd__(self, other):
        return _binop("add", other, self)

    def __iadd__(self, other):
        return self if _inplace("add", self._h, other) is None else NotImplemented

    def __sub__(self, other):
        return _binop("subtract", self, other)

    def __rsub__(self, other):
        return _binop("subtract", other, self)

    def __isub__(self, other):
        return self if _inplace("subtract", self._h, other) is None else NotImplemented

    def __mul__(self, other):
        return _binop("multiply", self, other)

    def __rmul__(self, other):
        return _binop("multiply", other, self)

    def __imul__(self, other):
        return self if _inplace("multiply", self._h, other) is None else NotImplemented

    def __truediv__(self, other):
        return _binop("divide", self, other)

    def __rtruediv__(self, other):
        return _binop("divide", other, self)

    def __itruediv__(self, other):
        return self if _inplace("divide", self._h, other) is None else NotImplemented

    def __floordiv__(self, other):
        return _binop("floor_divide", self, other)

    def __rfloordiv__(self, other):
        return _binop("floor_divide", other, self)

    def __ifloordiv__(self, other):
        return self if _inplace("floor_divide", self._h, other) is None else NotImplemented

    def __mod__(self, other):
        return _binop("remainder", self, other)

    def __rmod__(self, other):
        return _binop("remainder", other, self)

    def __imod__(self, other):
        return self if _inplace("remainder", self._h, other) is None else NotImplemented

    def __divmod__(self, other):
        q = _binop("floor_divide", self, other)
        if q is NotImplemented:
            return q
        return (q, _binop("remainder", self, other))

    def __rdivmod__(self, other):
        q = _binop("floor_divide", other, self)
        if q is NotImplemented:
            return q
        return (q, _binop("remainder", other, self))

    def __pow__(self, other, mod=None):
        return _binop("power", self, other)

    def __rpow__(self, other, mod=None):
        return _binop("power", other, self)

    def __ipow__(self, other):
        return self if _inplace("power", self._h, other) is None else NotImplemented

    def __matmul__(self, other):
        return _numpy.matmul(self, other)

    def __rmatmul__(self, other):
        return _numpy.matmul(other, self)

    def __and__(self, other):
        return _binop("bitwise_and", self, other)

    def __rand__(self, other):
        return _binop("bitwise_and", other, self)

    def __iand__(self, other):
        return self if _inplace("bitwise_and", self._h, other) is None else NotImplemented

    def __or__(self, other):
        return _binop("bitwise_or", self, other)

    def __ror__(self, other):
        return _binop("bitwise_or", other, self)

    def __ior__(self, other):
        return self if _inplace("bitwise_or", self._h, other) is None else NotImplemented

    def __xor__(self, other):
        return _binop("bitwise_xor", self, other)

    def __rxor__(self, other):
        return _binop("bitwise_xor", other, self)

    def __ixor__(self, other):
        return self if _inplace("bitwise_xor", self._h, other) is None else NotImplemented

    def __lshift__(self, other):
        return _binop("left_shift", self, other)

    def __rlshift__(self, other):
        return _binop("left_shift", other, self)

    def __ilshift__(self, other):
        return self if _inplace("left_shift", self._h, other) is None else NotImplemented

    def __rshift__(self, other):
        return _binop("right_shift", self, other)

    def __rrshift__(self, other):
        return _binop("right_shift", other, self)

    def __irshift__(self, other):
        return self if _inplace("right_shift", self._h, other) is None else NotImplemented

    def __eq__(self, other):
        return _binop("equal", self, other)

    def __ne__(self, other):
        return _binop("not_equal", self, other)

    def __lt__(self, other):
        return _binop("less", self, other)

    def __le__(self, other):
        return _binop("less_equal", self, other)

    def __gt__(self, other):
        return _binop("greater", self, other)

    def __ge__(self, other):
        return _binop("greater_equal", self, other)

    def __neg__(self):
        return _ufunc1("negative", self)

    def __pos__(self):
        return _ufunc1("positive", self)

    def __abs__(self):
        return _ufunc1("absolute", self)

    def __invert__(self):
        return _ufunc1("invert", self)


def _reconstruct(flat, shape, dt):
    return _numpy.from_flat(flat, shape, dt)


class _flatiter(object):
    """`a.flat`: the elements in row-major order."""

    def __init__(self, base):
        self.base = base

    def __iter__(self):
        return iter(_numpy.rows(_numpy.flatten(self.base._h)._h))

    def __len__(self):
        return self.base.size

    def __getitem__(self, key):
        return _numpy.flatten(self.base._h)[key]

    def __setitem__(self, key, value):
        flat = _numpy.flatten(self.base._h)
        flat[key] = value
        _numpy.assign(self.base._h, flat.reshape(self.base.shape)._h)

    def __array__(self, dtype=None, copy=None):
        return _numpy.flatten(self.base._h)

    def copy(self):
        return _numpy.flatten(self.base._h)


# ---------------------------------------------------------------- errors


class AxisError(ValueError, IndexError):
    """numpy.exceptions.AxisError."""

    def __init__(self, axis, ndim=None, msg_prefix=None):
        if ndim is None and msg_prefix is None:
            self._msg = axis
            self.axis = None
            self.ndim = None
        else:
            self._msg = msg_prefix
            self.axis = axis
            self.ndim = ndim
        super().__init__(axis)

    def __str__(self):
        if self.axis is None:
            return _builtins.str(self._msg)
        msg = "axis %d is out of bounds for array of dimension %d" % (self.axis, self.ndim)
        if self._msg is not None:
            msg = "%s: %s" % (self._msg, msg)
        return msg


AxisError.__module__ = "numpy.exceptions"


class UFuncTypeError(TypeError):
    pass


class _UFuncCastingError(UFuncTypeError):
    pass


class _UFuncOutputCastingError(_UFuncCastingError):
    pass


for _cls in (UFuncTypeError, _UFuncCastingError, _UFuncOutputCastingError):
    _cls.__module__ = "numpy._core._exceptions"
    # numpy's `_display_as_base`: the private classes show the public name.
    _cls.__name__ = "UFuncTypeError"
del _cls

class _UFuncNoLoopError(UFuncTypeError):
    pass


_UFuncNoLoopError.__module__ = "numpy._core._exceptions"
_UFuncNoLoopError.__name__ = "UFuncTypeError"

_numpy.register(ndarray, _SCALAR_TYPE_BY_NAME, {
    "AxisError": AxisError,
    "CastingError": _UFuncOutputCastingError,
    "NoLoopError": _UFuncNoLoopError,
})

True_ = bool_(True)
False_ = bool_(False)


class _ExceptionsModule(object):
    AxisError = AxisError
    ComplexWarning = type("ComplexWarning", (RuntimeWarning,), {})
    VisibleDeprecationWarning = type("VisibleDeprecationWarning", (UserWarning,), {})
    DTypePromotionError = type("DTypePromotionError", (TypeError,), {})


exceptions = _ExceptionsModule()
ComplexWarning = exceptions.ComplexWarning
VisibleDeprecationWarning = exceptions.VisibleDeprecationWarning

# ---------------------------------------------------------------- constants

newaxis = None
pi = _math.pi
e = _math.e
inf = _math.inf
nan = _math.nan
euler_gamma = 0.5772156649015329
# numpy 1.x's spellings, which 2018 scripts use.
Inf = Infinity = PINF = infty = inf
NINF = -inf
NaN = NAN = nan
PZERO = 0.0
NZERO = -0.0
little_endian = True

# ---------------------------------------------------------------- making arrays


_strmod = None


def _strings():
    """numpy/_strarray.py, arrays of str (loaded when a script makes one)."""
    global _strmod
    if _strmod is None:
        from numpy import _strarray
        _strmod = _strarray
    return _strmod


def _isstr(a):
    return isinstance(a, ndarray) and a._s is not None and not _isobj(a)


_objmod = None


def _objects():
    """numpy/_objarray.py, object arrays (loaded when a script makes one)."""
    global _objmod
    if _objmod is None:
        from numpy import _objarray
        _objmod = _objarray
    return _objmod


def _isobj(a):
    return isinstance(a, ndarray) and a._s is not None and getattr(type(a), "_is_object", False)


def array(object, dtype=None, copy=True, order="K", subok=False, ndmin=0, like=None):
    if not isinstance(object, (ndarray, generic, list, tuple)) and hasattr(object, "__array__"):
        object = object.__array__()
    if dtype is None:
        name = None
    else:
        name = _dtype_name(dtype)
        if name[0] == "U":
            return _strings().array(object, name, ndmin)
        if name == "object":
            return _objects().array(object, ndmin)
    if _isobj(object):
        if name is None:
            return _objects().array(object, ndmin)
        a = object.astype(name)
        if ndmin and a.ndim < ndmin:
            a = a.reshape((1,) * (ndmin - a.ndim) + a.shape)
        return a
    try:
        a = _numpy.array(object, name if name is None or name in _HOST_DTYPES else _host_name(name))
    except TypeError:
        if name is None and _objmod is not None and _objmod.has_objects(object):
            # Lists of object arrays: an object array, as numpy makes.
            return _objmod.array(object, ndmin)
        # Strings (a str, an array of str, lists of them): an array of str,
        # or numbers parsed from the strings.
        if not _strings().has_str(object):
            raise
        try:
            return _strings().array(object, name, ndmin)
        except ValueError as e:
            if name is not None or "inhomogeneous" not in _builtins.str(e):
                raise
            return _objects().array(object, ndmin)
    except ValueError as e:
        # numpy 1.x made an object array of a ragged list, silently
        # (numpy/_objarray.py; docs/choices.md). numpy 2 raises.
        if name is not None or "inhomogeneous" not in _builtins.str(e):
            raise
        return _objects().array(object, ndmin)
    if ndmin and a.ndim < ndmin:
        a = _numpy.reshape(a._h, (1,) * (ndmin - a.ndim) + a.shape)
    return a


def asarray(a, dtype=None, order=None, copy=None, like=None):
    if isinstance(a, ndarray) and (dtype is None or _dtype_name(dtype) == (
            a._h.dtype if a._s is None else a.dtype._name)):
        return a
    return array(a, dtype)


asanyarray = asarray


def ascontiguousarray(a, dtype=None, like=None):
    return asarray(a, dtype)


class matrix(ndarray):
    """numpy's 2-D matrix as far as 2018-19 programs used it (Paddle's
    cross_entropy op test built its expected output with `np.asmatrix`):
    `*` and `**` are matrix products, `.A`, `.T` and `.I` are there; other
    operations give plain arrays, where numpy keeps the subclass."""

    __array_priority__ = 10.0

    def __new__(cls, data, dtype=None, copy=True):
        a = array(data, dtype)
        if a.ndim > 2:
            raise ValueError("matrix must be 2-dimensional")
        if a.ndim < 2:
            a = a.reshape(1, -1 if a.ndim else 1)
        return cls._wrap_plain(a._h)

    def __mul__(self, other):
        return matrix(dot(asarray(self), asarray(other)))

    def __rmul__(self, other):
        return matrix(dot(asarray(other), asarray(self)))

    def __pow__(self, n):
        out = matrix(eye(self.shape[0], dtype=self.dtype))
        for _ in _builtins.range(n):
            out = out * self
        return out

    @property
    def A(self):
        return ndarray._wrap_plain(self._h)

    @property
    def T(self):
        return matrix(ndarray._wrap_plain(self._h).T)

    @property
    def I(self):
        return matrix(linalg.inv(self.A))

    def __repr__(self):
        lines = repr(self.A).split("\n")
        return "\n".join(["matrix" + lines[0][5:]] + [" " + l for l in lines[1:]])

    def __str__(self):
        return str(self.A)


def asmatrix(data, dtype=None):
    return matrix(data, dtype, copy=False)


def asfarray(a, dtype=float64):
    d = _dtype_name(dtype)
    if d not in ("float32", "float64"):
        d = "float64"
    return asarray(a, d)


def copy(a, order="K", subok=False):
    return array(a)


def zeros(shape, dtype=float64, order="C", like=None):
    name = _dtype_name(dtype)
    if name[0] == "U":
        return _strings().full(shape, "", name)
    if name == "object":
        return _objects().full(shape, 0)
    return _numpy.zeros(shape, name if name in _HOST_DTYPES else _host_name(name))


def ones(shape, dtype=None, order="C", like=None):
    name = None if dtype is None else _dtype_name(dtype)
    if name is not None and name[0] == "U":
        return _strings().full(shape, "1", name)
    if name == "object":
        return _objects().full(shape, 1)
    return _numpy.full(shape, 1, _host_name(name) or "float64")


def empty(shape, dtype=float64, order="C", like=None):
    name = _dtype_name(dtype)
    if name[0] == "U":
        return _strings().full(shape, "", name)
    if name == "object":
        return _objects().full(shape, None)
    return _numpy.zeros(shape, _host_name(name))


def full(shape, fill_value, dtype=None, order="C", like=None):
    name = None if dtype is None else _dtype_name(dtype)
    if (name is not None and name[0] == "U") or (name is None and isinstance(fill_value, _builtins.str)):
        return _strings().full(shape, fill_value, name)
    if name == "object":
        return _objects().full(shape, fill_value)
    return _numpy.full(shape, fill_value, _host_name(name))


def _like(a, dtype, shape):
    a = asarray(a)
    if shape is None:
        shape = a.shape
    return shape, (_host(dtype) if dtype is not None else a._h.dtype)


def zeros_like(a, dtype=None, order="K", subok=True, shape=None):
    shape, d = _like(a, dtype, shape)
    return _numpy.zeros(shape, d)


def ones_like(a, dtype=None, order="K", subok=True, shape=None):
    shape, d = _like(a, dtype, shape)
    return _numpy.full(shape, 1, d)


def empty_like(prototype, dtype=None, order="K", subok=True, shape=None):
    shape, d = _like(prototype, dtype, shape)
    return _numpy.zeros(shape, d)


def full_like(a, fill_value, dtype=None, order="K", subok=True, shape=None):
    shape, d = _like(a, dtype, shape)
    return _numpy.full(shape, fill_value, d)


def arange(start, stop=None, step=None, dtype=None, like=None):
    return _numpy.arange(start, stop, step, _host(dtype))


def linspace(start, stop, num=50, endpoint=True, retstep=False, dtype=None, axis=0):
    a = _numpy.linspace(start, stop, num, _builtins.bool(endpoint), _host(dtype))
    if retstep:
        div = (num - 1) if endpoint else num
        step = (_builtins.float(stop) - _builtins.float(start)) / div if div > 0 else nan
        return a, float64(step)
    return a


def logspace(start, stop, num=50, endpoint=True, base=10.0, dtype=None, axis=0):
    y = linspace(start, stop, num, endpoint)
    r = power(base, y)
    return r if dtype is None else r.astype(dtype)


def eye(N, M=None, k=0, dtype=float64, order="C", like=None):
    return _numpy.eye(N, M, k, _host(dtype) or "float64")


def identity(n, dtype=None, like=None):
    return _numpy.eye(n, None, 0, _host(dtype) or "float64")


def diag(v, k=0):
    v = asarray(v)
    if v.ndim == 1:
        n = v.shape[0] + _builtins.abs(k)
        out = zeros((n, n), v.dtype)
        i = arange(v.shape[0])
        if k >= 0:
            out[i, i + k] = v
        else:
            out[i - k, i] = v
        return out
    if v.ndim == 2:
        rows, cols = v.shape
        if k >= 0:
            n = _builtins.max(0, _builtins.min(rows, cols - k))
            i = arange(n)
            return v[i, i + k]
        n = _builtins.max(0, _builtins.min(rows + k, cols))
        i = arange(n)
        return v[i - k, i]
    raise ValueError("Input must be 1- or 2-d.")


def diagonal(a, offset=0, axis1=0, axis2=1):
    return diag(asarray(a), offset)


def trace(a, offset=0, axis1=0, axis2=1, dtype=None, out=None):
    return diag(asarray(a), offset).sum(dtype=dtype)


def tri(N, M=None, k=0, dtype=float64):
    M = N if M is None else M
    m = greater_equal.outer(arange(N), arange(-k, M - k))
    return m.astype(dtype)


def tril(m, k=0):
    m = asarray(m)
    mask = tri(m.shape[-2], m.shape[-1], k, bool_)
    return where(mask, m, zeros(1, m.dtype))


def triu(m, k=0):
    m = asarray(m)
    mask = tri(m.shape[-2], m.shape[-1], k - 1, bool_)
    return where(mask, zeros(1, m.dtype), m)


def frombuffer(buffer, dtype=float64, count=-1, offset=0):
    return _numpy.frombuffer(_builtins.bytes(buffer), _host(dtype), count, offset)


def fromiter(iter, dtype, count=-1, like=None):
    return array(_builtins.list(iter), dtype)


def meshgrid(*xi, indexing="xy", sparse=False, copy=True):
    arrays = [asarray(x).ravel() for x in xi]
    n = len(arrays)
    shapes = []
    for i, x in enumerate(arrays):
        s = [1] * n
        s[i] = x.shape[0]
        if indexing == "xy" and n > 1 and i < 2:
            s[0], s[1] = s[1], s[0]
        shapes.append(x.reshape(s))
    if sparse:
        return shapes
    full_shape = broadcast_shapes(*[s.shape for s in shapes])
    return [broadcast_to(s, full_shape).copy() for s in shapes]


def indices(dimensions, dtype=int64):
    n = len(dimensions)
    out = []
    for i, d in enumerate(dimensions):
        s = [1] * n
        s[i] = d
        out.append(broadcast_to(arange(d, dtype=dtype).reshape(s), dimensions))
    return stack(out) if out else zeros((0,), dtype)


class _Grid:
    """`np.mgrid` (one stacked dense array) and `np.ogrid` (open arrays
    that broadcast): a slice per axis, `start:stop:step` as `arange`, or a
    complex step `nj` for n points with the stop included, as `linspace`;
    every axis in the one dtype the slices' numbers promote to."""

    def __init__(self, sparse):
        self._sparse = sparse

    def __getitem__(self, key):
        single = isinstance(key, slice)
        keys = (key,) if single else tuple(key)
        numbers = []
        for k in keys:
            numbers += [v for v in (k.start, k.stop, k.step) if v is not None]
        real = _builtins.any(isinstance(v, (float, complex, floating)) for v in numbers)
        dt = float64 if real else int64
        axes = []
        for k in keys:
            start = 0 if k.start is None else k.start
            step = 1 if k.step is None else k.step
            if isinstance(step, complex):
                axes.append(linspace(start, k.stop, _builtins.int(_builtins.abs(step))).astype(dt))
            else:
                axes.append(arange(start, k.stop, step).astype(dt))
        if single:
            return axes[0]
        n = len(axes)
        grids = [x.reshape([len(x) if i == j else 1 for j in range(n)]) for i, x in enumerate(axes)]
        if self._sparse:
            return tuple(grids)
        shape = tuple(len(x) for x in axes)
        return stack([broadcast_to(g, shape) for g in grids])


mgrid = _Grid(False)
ogrid = _Grid(True)


# ---------------------------------------------------------------- shapes


def shape(a):
    if isinstance(a, (ndarray, generic)):
        return a.shape
    return asarray(a).shape


def ndim(a):
    if isinstance(a, (ndarray, generic)):
        return a.ndim
    return asarray(a).ndim


def size(a, axis=None):
    s = shape(a)
    if axis is None:
        n = 1
        for d in s:
            n *= d
        return n
    return s[axis]


def isscalar(element):
    return isinstance(element, (generic, _builtins.int, _builtins.float, _builtins.complex,
                                _builtins.str, _builtins.bytes, _builtins.bool))


def reshape(a, shape=None, order="C", newshape=None, copy=None):
    if shape is None:
        shape = newshape
    return asarray(a).reshape(shape)


def ravel(a, order="C"):
    return asarray(a).ravel()


def transpose(a, axes=None):
    a = asarray(a)
    if a._s is not None:
        return a.transpose(axes)
    return _numpy.transpose(a._h, axes)


def swapaxes(a, axis1, axis2):
    a = asarray(a)
    n = a.ndim
    axes = _builtins.list(_builtins.range(n))
    i = axis1 + n if axis1 < 0 else axis1
    j = axis2 + n if axis2 < 0 else axis2
    if not (0 <= i < n):
        raise AxisError(axis1, n)
    if not (0 <= j < n):
        raise AxisError(axis2, n)
    axes[i], axes[j] = axes[j], axes[i]
    return a.transpose(axes)


def moveaxis(a, source, destination):
    a = asarray(a)
    n = a.ndim
    src = [source] if isinstance(source, _builtins.int) else _builtins.list(source)
    dst = [destination] if isinstance(destination, _builtins.int) else _builtins.list(destination)
    src = [s + n if s < 0 else s for s in src]
    dst = [d + n if d < 0 else d for d in dst]
    order = [i for i in _builtins.range(n) if i not in src]
    for d, s in sorted(zip(dst, src)):
        order.insert(d, s)
    return a.transpose(order)


def rollaxis(a, axis, start=0):
    a = asarray(a)
    n = a.ndim
    axis = axis + n if axis < 0 else axis
    start = start + n if start < 0 else start
    axes = _builtins.list(_builtins.range(n))
    axes.remove(axis)
    axes.insert(start if start <= axis else start - 1, axis)
    return a.transpose(axes)


def squeeze(a, axis=None):
    a = asarray(a)
    if a._s is not None:
        return a.squeeze(axis)
    return _numpy.squeeze(a._h, axis)


def expand_dims(a, axis):
    a = asarray(a)
    if a._s is not None:
        return a._gather(_numpy.expand_dims(a._positions()._h, axis))
    return _numpy.expand_dims(a._h, axis)


def atleast_1d(*arys):
    res = [asarray(a) if asarray(a).ndim >= 1 else asarray(a).reshape(1) for a in arys]
    return res[0] if len(res) == 1 else res


def atleast_2d(*arys):
    res = []
    for a in arys:
        a = asarray(a)
        if a.ndim == 0:
            a = a.reshape(1, 1)
        elif a.ndim == 1:
            a = a[None, :]
        res.append(a)
    return res[0] if len(res) == 1 else res


def atleast_3d(*arys):
    res = []
    for a in arys:
        a = asarray(a)
        if a.ndim == 0:
            a = a.reshape(1, 1, 1)
        elif a.ndim == 1:
            a = a[None, :, None]
        elif a.ndim == 2:
            a = a[:, :, None]
        res.append(a)
    return res[0] if len(res) == 1 else res


def broadcast_to(array, shape, subok=False):
    return _numpy.broadcast_to(array, shape)


def broadcast_shapes(*args):
    ndim_ = _builtins.max([len(s) for s in args] + [0])
    out = [1] * ndim_
    for s in args:
        s = (s,) if isinstance(s, _builtins.int) else tuple(s)
        for k, d in enumerate(s):
            i = ndim_ - len(s) + k
            if out[i] == 1:
                out[i] = d
            elif d != 1 and d != out[i]:
                raise ValueError("shape mismatch: objects cannot be broadcast to a single shape.  Mismatch is between arg 0 with shape %s and arg 1 with shape %s." % (args[0], s))
    return tuple(out)


def broadcast_arrays(*args, subok=False):
    s = broadcast_shapes(*[shape(a) for a in args])
    return [broadcast_to(a, s) for a in args]


def concatenate(arrays, axis=0, out=None, dtype=None, casting="same_kind"):
    try:
        r = _numpy.concatenate(arrays, axis)
    except TypeError:
        if not _strings().has_str(_builtins.list(arrays)):
            raise
        r = _strings().combine(lambda pos: _numpy.concatenate(pos, axis), arrays)
    return r if dtype is None else r.astype(dtype)


concat = concatenate


def permute_dims(a, axes=None):
    return transpose(a, axes)


def stack(arrays, axis=0, out=None, dtype=None, casting="same_kind"):
    try:
        r = _numpy.stack(arrays, axis)
    except TypeError:
        if not _strings().has_str(_builtins.list(arrays)):
            raise
        r = _strings().combine(lambda pos: _numpy.stack(pos, axis), arrays)
    return r if dtype is None else r.astype(dtype)


def hstack(tup, dtype=None, casting="same_kind"):
    arrs = [atleast_1d(a) for a in tup]
    if arrs and arrs[0].ndim == 1:
        return concatenate(arrs, 0, dtype=dtype)
    return concatenate(arrs, 1, dtype=dtype)


def vstack(tup, dtype=None, casting="same_kind"):
    return concatenate([atleast_2d(a) for a in tup], 0, dtype=dtype)


row_stack = vstack


def dstack(tup):
    return concatenate([atleast_3d(a) for a in tup], 2)


def column_stack(tup):
    arrs = []
    for a in tup:
        a = asarray(a)
        if a.ndim < 2:
            a = a.reshape(-1, 1)
        arrs.append(a)
    return concatenate(arrs, 1)


def array_split(ary, indices_or_sections, axis=0):
    ary = asarray(ary)
    n = ary.shape[axis]
    if isinstance(indices_or_sections, (_builtins.int, integer)):
        sections = _builtins.int(indices_or_sections)
        if sections <= 0:
            raise ValueError("number sections must be larger than 0.")
        each, extra = divmod(n, sections)
        sizes = [each + 1] * extra + [each] * (sections - extra)
        points = [0]
        for s in sizes:
            points.append(points[-1] + s)
    else:
        points = [0] + [_builtins.int(i) for i in indices_or_sections] + [n]
    out = []
    for lo, hi in zip(points[:-1], points[1:]):
        index = [slice(None)] * ary.ndim
        index[axis] = slice(lo, hi)
        out.append(ary[tuple(index)])
    return out


def split(ary, indices_or_sections, axis=0):
    if isinstance(indices_or_sections, (_builtins.int, integer)):
        n = asarray(ary).shape[axis]
        if n % _builtins.int(indices_or_sections):
            raise ValueError("array split does not result in an equal division")
    return array_split(ary, indices_or_sections, axis)


def hsplit(ary, indices_or_sections):
    return split(ary, indices_or_sections, 1 if asarray(ary).ndim > 1 else 0)


def vsplit(ary, indices_or_sections):
    return split(ary, indices_or_sections, 0)


def _normalize_axis(axis, n):
    a = axis + n if axis < 0 else axis
    if not (0 <= a < n):
        raise AxisError(axis, n)
    return a


def take(a, indices, axis=None, out=None, mode="raise"):
    a = asarray(a)
    if axis is None:
        return a.ravel()[indices]
    axis = _normalize_axis(axis, a.ndim)
    return a[(slice(None),) * axis + (asarray(indices),)]


def repeat(a, repeats, axis=None):
    a = asarray(a)
    if axis is None:
        a = a.ravel()
        axis = 0
    axis = _normalize_axis(axis, a.ndim)
    n = a.shape[axis]
    reps = [_builtins.int(r) for r in asarray(repeats).ravel().tolist()]
    if len(reps) == 1:
        reps = reps * n
    if len(reps) != n:
        raise ValueError("operands could not be broadcast together with shape (%d,) (%d,)" % (n, len(reps)))
    idx = []
    for i, r in enumerate(reps):
        idx.extend([i] * r)
    return a[(slice(None),) * axis + (array(idx, int64),)]


def tile(A, reps):
    A = asarray(A)
    reps = (reps,) if isinstance(reps, (_builtins.int, integer)) else tuple(reps)
    d = _builtins.max(len(reps), A.ndim)
    A = A.reshape((1,) * (d - A.ndim) + A.shape)
    reps = (1,) * (d - len(reps)) + reps
    out = A
    for axis, r in enumerate(reps):
        if r != 1:
            n = out.shape[axis]
            idx = array(_builtins.list(_builtins.range(n)) * r, int64)
            out = out[(slice(None),) * axis + (idx,)]
    return out.copy() if out is A else out


def flip(m, axis=None):
    m = asarray(m)
    if axis is None:
        return m[(slice(None, None, -1),) * m.ndim]
    axes = (axis,) if isinstance(axis, _builtins.int) else axis
    index = [slice(None)] * m.ndim
    for ax in axes:
        index[_normalize_axis(ax, m.ndim)] = slice(None, None, -1)
    return m[tuple(index)]


def fliplr(m):
    return flip(m, 1)


def flipud(m):
    return flip(m, 0)


def roll(a, shift, axis=None):
    a = asarray(a)
    if axis is None:
        return roll(a.ravel(), shift, 0).reshape(a.shape)
    axis = _normalize_axis(axis, a.ndim)
    n = a.shape[axis]
    if n == 0:
        return a.copy()
    shift = shift % n
    idx = array(_builtins.list(_builtins.range(n - shift, n)) + _builtins.list(_builtins.range(0, n - shift)), int64)
    return a[(slice(None),) * axis + (idx,)]


def pad(array, pad_width, mode="constant", constant_values=0, **kwargs):
    if mode not in ("constant", "edge", "reflect", "symmetric"):
        raise NotImplementedError("fluidc's numpy pads with mode 'constant', 'edge', 'reflect' "
                                  "and 'symmetric', not %r" % (mode,))
    a = asarray(array)
    n = a.ndim
    pw = asarray(pad_width).tolist()
    if not isinstance(pw, _builtins.list):
        pw = [[pw, pw]] * n
    elif pw and not isinstance(pw[0], _builtins.list):
        pw = [pw if len(pw) == 2 else [pw[0], pw[0]]] * n
    elif len(pw) == 1:
        pw = pw * n
    # ((before, after), ...) or ((both,), ...) per axis.
    pw = [row * 2 if len(row) == 1 else row for row in pw]
    if mode != "constant":
        return _pad_from_edges(a, pw, mode)
    out_shape = tuple(d + lo + hi for d, (lo, hi) in zip(a.shape, pw))
    out = full(out_shape, constant_values, a.dtype)
    out[tuple(slice(lo, lo + d) for d, (lo, hi) in zip(a.shape, pw))] = a
    return out


def _pad_from_edges(a, pw, mode):
    """`pad`'s edge, reflect and symmetric modes, one axis after another
    (numpy's order), each from the array's own edge values."""
    for axis, (lo, hi) in enumerate(pw):
        n = a.shape[axis]
        if lo == 0 and hi == 0:
            continue
        if n == 0 or mode == "reflect" and _builtins.max(lo, hi) > n - 1 or \
                mode == "symmetric" and _builtins.max(lo, hi) > n:
            raise NotImplementedError("fluidc's numpy pads %s by at most the axis's length" % mode)

        def part(idx):
            return take(a, array(idx, int64), axis)
        if mode == "edge":
            before, after = [0] * lo, [n - 1] * hi
        elif mode == "reflect":
            before = _builtins.list(_builtins.range(lo, 0, -1))
            after = _builtins.list(_builtins.range(n - 2, n - 2 - hi, -1))
        else:
            before = _builtins.list(_builtins.range(lo - 1, -1, -1))
            after = _builtins.list(_builtins.range(n - 1, n - 1 - hi, -1))
        a = concatenate([part(before), a, part(after)], axis)
    return a


def append(arr, values, axis=None):
    arr = asarray(arr)
    values = asarray(values)
    if axis is None:
        return concatenate([arr.ravel(), values.ravel()])
    return concatenate([arr, values], axis)


def insert(arr, obj, values, axis=None):
    arr = asarray(arr)
    if axis is None:
        arr = arr.ravel()
        axis = 0
    n = arr.shape[axis]
    i = _builtins.int(obj)
    i = i + n if i < 0 else i
    values = asarray(values, arr.dtype)
    idx = [slice(None)] * arr.ndim
    before = tuple(idx[:axis]) + (slice(0, i),)
    after = tuple(idx[:axis]) + (slice(i, None),)
    shape_ = _builtins.list(arr.shape)
    shape_[axis] = 1
    values = broadcast_to(values.reshape(shape_) if values.size == 1 else values, shape_) if values.ndim < arr.ndim else values
    return concatenate([arr[before], values, arr[after]], axis)


def delete(arr, obj, axis=None):
    arr = asarray(arr)
    if axis is None:
        arr = arr.ravel()
        axis = 0
    n = arr.shape[axis]
    drop = set((i + n if i < 0 else i) for i in asarray(obj).ravel().tolist())
    keep = array([i for i in _builtins.range(n) if i not in drop], int64)
    return arr[(slice(None),) * axis + (keep,)]


# ---------------------------------------------------------------- ufuncs


class ufunc(object):
    """A universal function (`np.add`, `np.exp`, ...)."""

    def __init__(self, name, nin, reduction=None, identity=None):
        self.__name__ = name
        self.nin = nin
        self.nout = 1
        self.nargs = nin + 1
        self._reduction = reduction
        self.identity = identity

    def __repr__(self):
        return "<ufunc '%s'>" % self.__name__

    def __call__(self, *args, out=None, where=True, dtype=None, **kwargs):
        if len(args) > self.nin:
            out = args[self.nin]
            args = args[:self.nin]
        if len(args) != self.nin:
            raise TypeError("%s() takes from %d to %d positional arguments but %d were given"
                            % (self.__name__, self.nin, self.nin + 1, len(args)))
        if dtype is not None:
            args = [asarray(x, dtype) for x in args]
        if self.nin == 1:
            r = _ufunc1(self.__name__, args[0])
        else:
            r = _ufunc2(self.__name__, args[0], args[1])
        if out is not None:
            if isinstance(out, tuple):
                out = out[0]
            out[...] = r
            return out
        return r

    def reduce(self, array, axis=0, dtype=None, out=None, keepdims=False, initial=None, where=True):
        if self._reduction is None:
            raise NotImplementedError("fluidc's numpy has no %s.reduce" % self.__name__)
        return _reduce(self._reduction, array, axis, keepdims, dtype)

    def accumulate(self, array, axis=0, dtype=None, out=None):
        if self.__name__ == "add":
            return cumsum(array, axis, dtype)
        if self.__name__ == "multiply":
            return cumprod(array, axis, dtype)
        raise NotImplementedError("fluidc's numpy has no %s.accumulate" % self.__name__)

    def outer(self, A, B, **kwargs):
        A = asarray(A)
        B = asarray(B)
        return self(A.reshape(A.shape + (1,) * B.ndim), B)


add = ufunc("add", 2, "sum", 0)
subtract = ufunc("subtract", 2)
multiply = ufunc("multiply", 2, "prod", 1)
divide = ufunc("divide", 2)
true_divide = divide
floor_divide = ufunc("floor_divide", 2)
remainder = ufunc("remainder", 2)
mod = remainder
power = ufunc("power", 2)
pow = power
maximum = ufunc("maximum", 2, "max")
minimum = ufunc("minimum", 2, "min")
fmax = maximum
fmin = minimum
equal = ufunc("equal", 2)
not_equal = ufunc("not_equal", 2)
less = ufunc("less", 2)
less_equal = ufunc("less_equal", 2)
greater = ufunc("greater", 2)
greater_equal = ufunc("greater_equal", 2)
bitwise_and = ufunc("bitwise_and", 2)
bitwise_or = ufunc("bitwise_or", 2)
bitwise_xor = ufunc("bitwise_xor", 2)
left_shift = ufunc("left_shift", 2)
right_shift = ufunc("right_shift", 2)
logical_and = ufunc("logical_and", 2, "all", True)
logical_or = ufunc("logical_or", 2, "any", False)
logical_xor = ufunc("logical_xor", 2)

negative = ufunc("negative", 1)
positive = ufunc("positive", 1)
absolute = ufunc("absolute", 1)
abs = absolute
fabs = ufunc("fabs", 1)
exp = ufunc("exp", 1)
exp2 = ufunc("exp2", 1)
expm1 = ufunc("expm1", 1)
log = ufunc("log", 1)
log2 = ufunc("log2", 1)
log10 = ufunc("log10", 1)
log1p = ufunc("log1p", 1)
sqrt = ufunc("sqrt", 1)
cbrt = ufunc("cbrt", 1)
square = ufunc("square", 1)
reciprocal = ufunc("reciprocal", 1)
tanh = ufunc("tanh", 1)
sinh = ufunc("sinh", 1)
cosh = ufunc("cosh", 1)
sin = ufunc("sin", 1)
cos = ufunc("cos", 1)
tan = ufunc("tan", 1)
arcsin = ufunc("arcsin", 1)
arccos = ufunc("arccos", 1)
arctan = ufunc("arctan", 1)
arcsinh = ufunc("arcsinh", 1)
arccosh = ufunc("arccosh", 1)
arctanh = ufunc("arctanh", 1)
deg2rad = ufunc("deg2rad", 1)
rad2deg = ufunc("rad2deg", 1)
radians = deg2rad
degrees = rad2deg
floor = ufunc("floor", 1)
ceil = ufunc("ceil", 1)
trunc = ufunc("trunc", 1)
rint = ufunc("rint", 1)
sign = ufunc("sign", 1)
signbit = ufunc("signbit", 1)
isnan = ufunc("isnan", 1)
isinf = ufunc("isinf", 1)
isfinite = ufunc("isfinite", 1)
invert = ufunc("invert", 1)
bitwise_not = invert
logical_not = ufunc("logical_not", 1)
# The array API's names (numpy 2).
acos = arccos
acosh = arccosh
asin = arcsin
asinh = arcsinh
atan = arctan
atanh = arctanh
bitwise_invert = invert
bitwise_left_shift = left_shift
bitwise_right_shift = right_shift


def fix(x, out=None):
    return _ufunc1("trunc", x)


def isposinf(x):
    return logical_and(isinf(x), logical_not(signbit(x)))


def isneginf(x):
    return logical_and(isinf(x), signbit(x))


def around(a, decimals=0, out=None):
    return _numpy.round(a, decimals)


round = around
round_ = around


def clip(a, a_min=None, a_max=None, out=None, min=None, max=None, **kwargs):
    if a_min is None:
        a_min = min
    if a_max is None:
        a_max = max
    r = _numpy.clip(a, a_min, a_max)
    if out is not None:
        out[...] = r
        return out
    return r


def where(condition, x=None, y=None):
    if x is None and y is None:
        return _numpy.nonzero(condition)
    if x is None or y is None:
        raise ValueError("either both or neither of x and y should be given")
    try:
        return _numpy.where(condition, x, y)
    except TypeError:
        if not _strings().has_str([x, y]):
            raise
        return _strings().combine(lambda pos: _numpy.where(condition, pos[0], pos[1]), [x, y])


def nonzero(a):
    return _numpy.nonzero(a)


def argwhere(a):
    return transpose(stack(_numpy.nonzero(a))) if asarray(a).ndim else zeros((0, 0), int64)


def flatnonzero(a):
    return _numpy.nonzero(ravel(a))[0]


def count_nonzero(a, axis=None, keepdims=False):
    if axis is None:
        return _numpy.count_nonzero(a)
    return _reduce("sum", asarray(a).astype(bool_), axis, keepdims, None)


def select(condlist, choicelist, default=0):
    out = asarray(default)
    for cond, choice in reversed(_builtins.list(zip(condlist, choicelist))):
        out = where(cond, choice, out)
    return out


def piecewise(x, condlist, funclist, *args, **kw):
    x = asarray(x)
    out = zeros_like(x)
    for cond, f in zip(condlist, funclist):
        cond = asarray(cond)
        vals = f(x[cond], *args, **kw) if callable(f) else f
        out[cond] = vals
    return out


def dot(a, b, out=None):
    return _numpy.dot(a, b)


def vdot(a, b):
    return _numpy.dot(ravel(a), ravel(b))


def inner(a, b):
    a = asarray(a)
    b = asarray(b)
    if a.ndim <= 1 and b.ndim <= 1:
        return _numpy.dot(a, b)
    return _numpy.matmul(a, swapaxes(b, -1, -2) if b.ndim > 1 else b)


def matmul(x1, x2, out=None, **kwargs):
    return _numpy.matmul(x1, x2)


def outer(a, b, out=None):
    a = ravel(a)
    b = ravel(b)
    return multiply(a[:, None], b[None, :])


def tensordot(a, b, axes=2):
    a = asarray(a)
    b = asarray(b)
    if isinstance(axes, _builtins.int):
        a_axes = _builtins.list(_builtins.range(a.ndim - axes, a.ndim))
        b_axes = _builtins.list(_builtins.range(axes))
    else:
        a_axes, b_axes = axes
        a_axes = [a_axes] if isinstance(a_axes, _builtins.int) else _builtins.list(a_axes)
        b_axes = [b_axes] if isinstance(b_axes, _builtins.int) else _builtins.list(b_axes)
    a_axes = [_normalize_axis(x, a.ndim) for x in a_axes]
    b_axes = [_normalize_axis(x, b.ndim) for x in b_axes]
    a_free = [i for i in _builtins.range(a.ndim) if i not in a_axes]
    b_free = [i for i in _builtins.range(b.ndim) if i not in b_axes]
    k = 1
    for i in a_axes:
        k *= a.shape[i]
    at = a.transpose(a_free + a_axes).reshape(-1, k)
    bt = b.transpose(b_axes + b_free).reshape(k, -1)
    shape_ = tuple(a.shape[i] for i in a_free) + tuple(b.shape[i] for i in b_free)
    return _numpy.dot(at, bt).reshape(shape_)


def cross(a, b):
    a = asarray(a)
    b = asarray(b)
    x = a[..., 1] * b[..., 2] - a[..., 2] * b[..., 1]
    y = a[..., 2] * b[..., 0] - a[..., 0] * b[..., 2]
    z = a[..., 0] * b[..., 1] - a[..., 1] * b[..., 0]
    return stack([x, y, z], -1)


def isclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False):
    return _numpy.isclose(a, b, rtol, atol, equal_nan)


def allclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False):
    return _numpy.allclose(a, b, rtol, atol, equal_nan)


def array_equal(a1, a2, equal_nan=False):
    if equal_nan:
        a1 = asarray(a1)
        a2 = asarray(a2)
        if a1.shape != a2.shape:
            return False
        both = logical_and(isnan(a1), isnan(a2)) if a1.dtype.kind == "f" else False
        return _builtins.bool(logical_or(a1 == a2, both).all())
    return _numpy.array_equal(a1, a2)


def array_equiv(a1, a2):
    try:
        return _builtins.bool((asarray(a1) == asarray(a2)).all())
    except ValueError:
        return False


# ---------------------------------------------------------------- reductions


def sum(a, axis=None, dtype=None, out=None, keepdims=False, initial=None, where=True):
    return _reduce("sum", a, axis, keepdims, dtype)


def prod(a, axis=None, dtype=None, out=None, keepdims=False, initial=None, where=True):
    return _reduce("prod", a, axis, keepdims, dtype)


product = prod


def mean(a, axis=None, dtype=None, out=None, keepdims=False, where=True):
    return _reduce("mean", a, axis, keepdims, dtype)


def average(a, axis=None, weights=None, returned=False, keepdims=False):
    if weights is None:
        avg = mean(a, axis, keepdims=keepdims)
        if returned:
            n = size(a) if axis is None else shape(a)[axis]
            return avg, avg.dtype.type(n)
        return avg
    a = asarray(a)
    w = asarray(weights)
    if a.shape != w.shape:
        if axis is None:
            raise TypeError("Axis must be specified when shapes of a and weights differ.")
        s = [1] * a.ndim
        s[axis] = w.shape[0]
        w = w.reshape(s)
    scl = sum(w * ones_like(a), axis, keepdims=keepdims)
    avg = sum(a * w, axis, keepdims=keepdims) / scl
    return (avg, scl) if returned else avg


def std(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False, where=True):
    return _reduce("std", a, axis, keepdims, dtype, ddof)


def var(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False, where=True):
    return _reduce("var", a, axis, keepdims, dtype, ddof)


def max(a, axis=None, out=None, keepdims=False, initial=None, where=True):
    return _reduce("max", a, axis, keepdims, None)


def min(a, axis=None, out=None, keepdims=False, initial=None, where=True):
    return _reduce("min", a, axis, keepdims, None)


amax = max
amin = min


def ptp(a, axis=None, out=None, keepdims=False):
    return max(a, axis, keepdims=keepdims) - min(a, axis, keepdims=keepdims)


def argmax(a, axis=None, out=None, keepdims=False):
    return _reduce("argmax", a, axis, keepdims, None)


def argmin(a, axis=None, out=None, keepdims=False):
    return _reduce("argmin", a, axis, keepdims, None)


def any(a, axis=None, out=None, keepdims=False, where=True):
    return _reduce("any", a, axis, keepdims, None)


def all(a, axis=None, out=None, keepdims=False, where=True):
    return _reduce("all", a, axis, keepdims, None)


alltrue = all
sometrue = any


def _nan_filled(a, value):
    a = asarray(a)
    if a.dtype.kind != "f":
        return a
    return where(isnan(a), value, a)


def nansum(a, axis=None, dtype=None, out=None, keepdims=False):
    return sum(_nan_filled(a, 0), axis, dtype, keepdims=keepdims)


def nanmax(a, axis=None, out=None, keepdims=False):
    return max(_nan_filled(a, -inf), axis, keepdims=keepdims)


def nanmin(a, axis=None, out=None, keepdims=False):
    return min(_nan_filled(a, inf), axis, keepdims=keepdims)


def nanmean(a, axis=None, dtype=None, out=None, keepdims=False):
    a = asarray(a)
    if a.dtype.kind != "f":
        return mean(a, axis, dtype, keepdims=keepdims)
    ok = logical_not(isnan(a))
    return sum(where(ok, a, 0), axis, dtype, keepdims=keepdims) / sum(ok, axis, keepdims=keepdims)


def cumsum(a, axis=None, dtype=None, out=None):
    return _numpy.cumulative("cumsum", a, axis, _host(dtype))


def cumprod(a, axis=None, dtype=None, out=None):
    return _numpy.cumulative("cumprod", a, axis, _host(dtype))


cumproduct = cumprod


def diff(a, n=1, axis=-1):
    a = asarray(a)
    axis = _normalize_axis(axis, a.ndim)
    for _ in _builtins.range(n):
        lo = (slice(None),) * axis + (slice(1, None),)
        hi = (slice(None),) * axis + (slice(None, -1),)
        if a.dtype == bool_:
            a = not_equal(a[lo], a[hi])
        else:
            a = a[lo] - a[hi]
    return a


def sort(a, axis=-1, kind=None, order=None):
    try:
        return _numpy.sort(a, axis)
    except TypeError:
        if not _strings().has_str(a):
            raise
        return _strings().sort(a, axis)


def argsort(a, axis=-1, kind=None, order=None):
    try:
        return _numpy.argsort(a, axis)
    except TypeError:
        if not _strings().has_str(a):
            raise
        return _strings().argsort(a, axis)


def _partition_checked(a, kth, axis, kind, order):
    """The checks numpy's partition/argpartition make; returns (array, axis).
    A full sort along the axis is one of the orders numpy's introselect may
    give (numpy leaves the order on each side of the kth elements unspecified)."""
    if kind != "introselect":
        raise ValueError("select kind must be 'introselect' (got %r)" % (kind,))
    if order is not None:
        raise ValueError("Cannot specify order when the array has no fields.")
    a = asarray(a)
    if axis is None:
        a, axis = a.ravel(), 0
    n = a.shape[axis] if a.ndim else 1
    for k in (kth if isinstance(kth, (list, tuple, ndarray)) else [kth]):
        if isinstance(k, (_builtins.bool, bool_)):
            raise ValueError("Booleans unacceptable as partition index")
        if not hasattr(k, "__index__"):
            raise TypeError("Partition index must be integer")
        k = k.__index__()
        if k < 0:
            k += n
        if not 0 <= k < n:
            raise ValueError("kth(=%d) out of bounds (%d)" % (k, n))
    return a, axis


def argpartition(a, kth, axis=-1, kind="introselect", order=None):
    a, axis = _partition_checked(a, kth, axis, kind, order)
    return argsort(a, axis)


def partition(a, kth, axis=-1, kind="introselect", order=None):
    a, axis = _partition_checked(a, kth, axis, kind, order)
    return sort(a, axis)


def unique(ar, return_index=False, return_inverse=False, return_counts=False, axis=None):
    if axis is not None:
        raise NotImplementedError("fluidc's numpy has no np.unique(axis=)")
    if _isstr(ar) or (isinstance(ar, (list, tuple)) and _strings().has_str(ar)):
        return _strings().unique(ar, return_index, return_inverse, return_counts)
    a = asarray(ar).ravel()
    order = _numpy.argsort(a, 0)
    s = a[order]
    if s.size:
        first = concatenate([array([True]), s[1:] != s[:-1]])
    else:
        first = array([], bool_)
    u = s[first]
    if not (return_index or return_inverse or return_counts):
        return u
    out = [u]
    starts = flatnonzero(first)
    if return_index:
        out.append(order[starts])
    if return_inverse:
        inv = zeros(a.shape, int64)
        inv[order] = cumsum(first) - 1
        out.append(inv.reshape(asarray(ar).shape))
    if return_counts:
        out.append(diff(concatenate([starts, array([s.size])])))
    return tuple(out)


def searchsorted(a, v, side="left", sorter=None):
    if side not in ("left", "right"):
        raise ValueError("search side must be 'left' or 'right' (got %r)" % (side,))
    a = asarray(a)
    if sorter is not None:
        a = a[sorter]
    v_arr = asarray(v)
    vals = a.tolist()
    out = []
    import bisect
    for x in v_arr.ravel().tolist():
        out.append(bisect.bisect_left(vals, x) if side == "left" else bisect.bisect_right(vals, x))
    r = array(out, int64).reshape(v_arr.shape)
    return r[()] if v_arr.ndim == 0 else r


def median(a, axis=None, out=None, overwrite_input=False, keepdims=False):
    a = asarray(a)
    if axis is None:
        a = a.ravel()
        axis = 0
    axis = _normalize_axis(axis, a.ndim)
    s = sort(a, axis)
    n = s.shape[axis]
    lo = (n - 1) // 2
    hi = n // 2
    pick = lambda i: s[(slice(None),) * axis + (slice(i, i + 1),)]
    m = mean(concatenate([pick(lo), pick(hi)], axis), axis, keepdims=keepdims)
    return m


def percentile(a, q, axis=None, out=None, overwrite_input=False, method="linear", keepdims=False, interpolation=None):
    a = asarray(a).ravel() if axis is None else asarray(a)
    if axis is None:
        axis = 0
    s = sort(a, axis)
    n = s.shape[axis]
    qs = asarray(q, float64)
    res = []
    for qv in qs.ravel().tolist():
        pos = qv / 100.0 * (n - 1)
        lo = _builtins.int(_math.floor(pos))
        hi = _builtins.min(lo + 1, n - 1)
        frac = pos - lo
        vlo = take(s, lo, axis)
        vhi = take(s, hi, axis)
        res.append(vlo + (vhi - vlo) * frac)
    if qs.ndim == 0:
        return res[0]
    return stack(res)


def quantile(a, q, axis=None, **kwargs):
    return percentile(a, multiply(q, 100.0), axis, **kwargs)


def bincount(x, weights=None, minlength=0):
    x = asarray(x).ravel().tolist()
    n = _builtins.max([minlength] + [v + 1 for v in x])
    if weights is None:
        out = [0] * n
        for v in x:
            out[v] += 1
        return array(out, int64)
    w = asarray(weights, float64).ravel().tolist()
    out = [0.0] * n
    for v, wv in zip(x, w):
        out[v] += wv
    return array(out, float64)


def histogram(a, bins=10, range=None, weights=None, density=None):
    """numpy's: counts in `bins` equal bins over `range` (the data's min
    and max) or between given edges, the last bin closed; values outside
    are left out."""
    a = asarray(a).ravel().astype(float64)
    if isinstance(bins, (_builtins.int, integer)):
        if range is None:
            lo, hi = (a.min(), a.max()) if a.size else (0.0, 1.0)
        else:
            lo, hi = range
        lo, hi = _builtins.float(lo), _builtins.float(hi)
        if lo > hi:
            raise ValueError("max must be larger than min in range parameter.")
        if lo == hi:
            lo, hi = lo - 0.5, hi + 0.5
        edges = linspace(lo, hi, _builtins.int(bins) + 1)
    else:
        edges = asarray(bins).astype(float64)
    import bisect  # on first use: importing it costs start-up
    e = edges.tolist()
    nb = len(e) - 1
    w = None if weights is None else asarray(weights).ravel().tolist()
    counts = [0.0 if w is not None or density else 0] * nb
    for i, v in enumerate(a.tolist()):
        if not e[0] <= v <= e[-1]:
            continue
        k = _builtins.min(bisect.bisect_right(e, v) - 1, nb - 1)
        counts[k] += 1 if w is None else w[i]
    if density:
        total = _builtins.sum(counts)
        counts = [c / total / (e[k + 1] - e[k]) for k, c in enumerate(counts)]
        return array(counts, float64), edges
    return array(counts, int64 if w is None else float64), edges


def isin(element, test_elements, assume_unique=False, invert=False, kind=None):
    """Whether each element of `element` is among `test_elements`."""
    element = asarray(element)
    pool = _builtins.set(asarray(test_elements).ravel().tolist())
    found = [(v in pool) != _builtins.bool(invert) for v in element.ravel().tolist()]
    return array(found, bool_).reshape(element.shape)


def interp(x, xp, fp, left=None, right=None):
    raise NotImplementedError("fluidc's numpy has no interp")


def convolve(a, v, mode="full"):
    a = asarray(a)
    v = asarray(v)
    n, m = a.shape[0], v.shape[0]
    out = zeros(n + m - 1, result_type(a, v))
    for i in _builtins.range(m):
        out[i:i + n] += a * v[i]
    if mode == "full":
        return out
    if mode == "same":
        k = (_builtins.min(n, m) - 1) // 2
        return out[k:k + _builtins.max(n, m)]
    if mode == "valid":
        return out[_builtins.min(n, m) - 1:_builtins.max(n, m)]
    raise ValueError("mode must be one of 'full', 'same', 'valid'")


def nan_to_num(x, copy=True, nan=0.0, posinf=None, neginf=None):
    x = asarray(x)
    if x.dtype.kind != "f":
        return x.copy()
    big = finfo(x.dtype).max
    x = where(isnan(x), nan, x)
    x = where(isposinf(x), big if posinf is None else posinf, x)
    x = where(isneginf(x), -big if neginf is None else neginf, x)
    return x


def einsum(*operands, **kwargs):
    raise NotImplementedError("fluidc's numpy has no einsum")


# ---------------------------------------------------------------- dtype functions


def result_type(*arrays_and_dtypes):
    out = None
    for x in arrays_and_dtypes:
        if isinstance(x, (dtype, _builtins.str, type)):
            x = zeros((), _host(x))
        if out is None:
            out = x
            continue
        out = zeros((), _numpy.result_type(out, x))
    if out is None:
        raise ValueError("at least one array or dtype is required")
    return dtype(asarray(out).dtype)


def promote_types(type1, type2):
    return result_type(dtype(type1), dtype(type2))


def can_cast(from_, to, casting="safe"):
    f = dtype(from_.dtype if hasattr(from_, "dtype") else from_)
    t = dtype(to)
    order = ["bool", "int32", "int64", "float32", "float64"]
    if casting == "unsafe":
        return True
    if f == t:
        return True
    if f.name in order and t.name in order:
        if f.name in ("int32", "int64") and t.name == "float32":
            return f.name == "int32" and False
        return order.index(f.name) <= order.index(t.name) and not (f.name == "int64" and t.name == "float32")
    return False


def issubdtype(arg1, arg2):
    def scalar_type(arg):
        # bytes_ (`string_`) is a type here, though no array holds it.
        if isinstance(arg, type) and (issubclass(arg, generic) or arg is bytes_):
            return arg
        return dtype(arg).type
    return issubclass(scalar_type(arg1), scalar_type(arg2))


def isdtype(dt, kind):
    kinds = (kind,) if not isinstance(kind, tuple) else kind
    d = dtype(dt)
    for k in kinds:
        if k == "bool" and d.kind == "b":
            return True
        if k == "signed integer" and d.kind == "i":
            return True
        if k == "unsigned integer" and d.kind == "u":
            return True
        if k == "integral" and d.kind in "iu":
            return True
        if k == "real floating" and d.kind == "f":
            return True
        if k == "numeric" and d.kind in "iufc":
            return True
        if not isinstance(k, _builtins.str) and dtype(k) == d:
            return True
    return False


def iscomplexobj(x):
    return False


def isrealobj(x):
    return True


class finfo(object):
    _VALUES = {
        "float16": (0.0009765625, 65504.0, 6.103515625e-05, 5.960464477539063e-08, 16, 3, 0.001),
        "float32": (1.1920928955078125e-07, 3.4028234663852886e+38, 1.1754943508222875e-38,
                    1.401298464324817e-45, 32, 6, 1e-06),
        "float64": (2.220446049250313e-16, 1.7976931348623157e+308, 2.2250738585072014e-308,
                    5e-324, 64, 15, 1e-15),
    }

    def __init__(self, dtype_):
        if isinstance(dtype_, (ndarray, generic)):
            dtype_ = dtype_.dtype
        if dtype_ is _builtins.float:
            dtype_ = "float64"
        name = _dtype_name(dtype_)
        if name not in self._VALUES:
            raise ValueError("data type %r not inexact" % (dtype(name).type,))
        eps, big, tiny, smallest_sub, bits, precision, resolution = self._VALUES[name]
        t = _SCALAR_TYPE_BY_NAME[name] if name != "float16" else float64
        self.dtype = dtype(name)
        self.bits = bits
        self.precision = precision
        self.eps = t(eps)
        self.max = t(big)
        self.min = t(-big)
        self.tiny = t(tiny)
        self.smallest_normal = t(tiny)
        self.smallest_subnormal = t(smallest_sub)
        self.resolution = t(resolution)
        self.epsneg = t(eps / 2)

    def __repr__(self):
        return "finfo(resolution=%s, min=%s, max=%s, dtype=%s)" % (
            self.resolution, self.min, self.max, self.dtype)


class iinfo(object):
    _VALUES = {
        "int8": (-128, 127), "int16": (-32768, 32767), "int32": (-2147483648, 2147483647),
        "int64": (-9223372036854775808, 9223372036854775807),
        "longlong": (-9223372036854775808, 9223372036854775807), "uint8": (0, 255),
        "uint16": (0, 65535), "uint32": (0, 4294967295), "uint64": (0, 18446744073709551615),
        "bool": (0, 1),
    }

    def __init__(self, int_type):
        if isinstance(int_type, (ndarray, generic)):
            int_type = int_type.dtype
        name = _dtype_name(int_type)
        if name not in self._VALUES or name == "bool":
            raise ValueError("Invalid integer data type %r." % dtype(name).kind)
        self.dtype = dtype(name)
        self.kind = self.dtype.kind
        self.bits = self.dtype.itemsize * 8
        self.min, self.max = self._VALUES[name]

    def __repr__(self):
        return "iinfo(min=%d, max=%d, dtype=%s)" % (self.min, self.max, self.dtype)


# ---------------------------------------------------------------- printing and errors

_PRINT_DEFAULTS = {
    "edgeitems": 3, "threshold": 1000, "floatmode": "maxprec", "precision": 8,
    "suppress": False, "linewidth": 75, "nanstr": "nan", "infstr": "inf", "sign": "-",
    "formatter": None, "legacy": False, "override_repr": None,
}
_print_options = dict(_PRINT_DEFAULTS)
# What `_numpy.format` takes: None for numpy's defaults, else
# (precision, threshold, edgeitems, linewidth, suppress, floatmode).
_popts = None
_SUPPORTED_PRINT = ("precision", "threshold", "edgeitems", "linewidth", "suppress", "floatmode")


def _print_tuple(o):
    t = tuple(o[k] for k in _SUPPORTED_PRINT)
    return None if t == tuple(_PRINT_DEFAULTS[k] for k in _SUPPORTED_PRINT) else t


def _check_print_options(o):
    for k in o:
        if k not in _SUPPORTED_PRINT and o[k] != _PRINT_DEFAULTS[k]:
            raise NotImplementedError(
                "fluidc's numpy supports the print options precision, threshold, edgeitems, "
                "linewidth, suppress and floatmode, not %s=%r" % (k, o[k]))
    if o["floatmode"] not in ("fixed", "unique", "maxprec", "maxprec_equal"):
        raise ValueError("floatmode option must be one of 'fixed', 'unique', 'maxprec', 'maxprec_equal'")
    if o["threshold"] is not None and isinstance(o["threshold"], _builtins.float) and _math.isnan(o["threshold"]):
        raise ValueError("threshold must be non-NAN, try sys.maxsize for untruncated representation")


def set_printoptions(precision=None, threshold=None, edgeitems=None, linewidth=None,
                     suppress=None, nanstr=None, infstr=None, formatter=None, sign=None,
                     floatmode=None, *, legacy=None, override_repr=None):
    global _popts
    given = dict(precision=precision, threshold=threshold, edgeitems=edgeitems,
                 linewidth=linewidth, suppress=suppress, nanstr=nanstr, infstr=infstr,
                 formatter=formatter, sign=sign, floatmode=floatmode, legacy=legacy,
                 override_repr=override_repr)
    new = dict(_print_options)
    for k, v in given.items():
        if v is None:
            continue
        if k == "suppress":
            v = _builtins.bool(v)
        elif k == "precision":
            v = operator_index(v)
            if v < 0:
                raise ValueError("precision must be >= 0")
        new[k] = v
    if formatter is None and "formatter" in given:
        new["formatter"] = None
    _check_print_options(new)
    _print_options.clear()
    _print_options.update(new)
    _popts = _print_tuple(_print_options)


def operator_index(v):
    import operator
    return operator.index(v)


def get_printoptions():
    return dict(_print_options)


class printoptions(object):
    def __init__(self, *args, **kwargs):
        self._args = args
        self._kwargs = kwargs

    def __enter__(self):
        self._saved = get_printoptions()
        set_printoptions(*self._args, **self._kwargs)
        return get_printoptions()

    def __exit__(self, *exc):
        global _popts
        _print_options.clear()
        _print_options.update(self._saved)
        _popts = _print_tuple(_print_options)
        return False


def array2string(a, max_line_width=None, precision=None, suppress_small=None, separator=" ",
                 prefix="", style=None, formatter=None, threshold=None, edgeitems=None,
                 sign=None, floatmode=None, suffix="", **kwargs):
    if separator != " " or prefix or suffix or formatter is not None or sign is not None:
        raise NotImplementedError("fluidc's numpy.array2string takes no separator, prefix, formatter or sign")
    o = dict(_print_options)
    for k, v in (("linewidth", max_line_width), ("precision", precision), ("suppress", suppress_small),
                 ("threshold", threshold), ("edgeitems", edgeitems), ("floatmode", floatmode)):
        if v is not None:
            o[k] = v
    return _numpy.format(asarray(a)._h, "array2string", tuple(o[k] for k in _SUPPORTED_PRINT))


def array_repr(arr, max_line_width=None, precision=None, suppress_small=None):
    o = dict(_print_options)
    for k, v in (("linewidth", max_line_width), ("precision", precision), ("suppress", suppress_small)):
        if v is not None:
            o[k] = v
    return _numpy.format(asarray(arr)._h, "repr", tuple(o[k] for k in _SUPPORTED_PRINT))


def array_str(a, max_line_width=None, precision=None, suppress_small=None):
    o = dict(_print_options)
    for k, v in (("linewidth", max_line_width), ("precision", precision), ("suppress", suppress_small)):
        if v is not None:
            o[k] = v
    return _numpy.format(asarray(a)._h, "str", tuple(o[k] for k in _SUPPORTED_PRINT))


_err_state = {"divide": "warn", "over": "warn", "under": "ignore", "invalid": "warn"}


def seterr(all=None, divide=None, over=None, under=None, invalid=None):
    old = dict(_err_state)
    for k, v in (("divide", divide), ("over", over), ("under", under), ("invalid", invalid)):
        if v is not None or all is not None:
            _err_state[k] = v if v is not None else all
    return old


def geterr():
    return dict(_err_state)


class errstate(object):
    def __init__(self, **kwargs):
        self._kwargs = kwargs

    def __enter__(self):
        self._old = seterr(**self._kwargs)

    def __exit__(self, *exc):
        seterr(**self._old)
        return False

    def __call__(self, func):
        def wrapped(*args, **kwargs):
            with errstate(**self._kwargs):
                return func(*args, **kwargs)
        return wrapped


def copyto(dst, src, casting="same_kind", where=True):
    if where is True:
        dst[...] = src
    else:
        dst[...] = _numpy.where(where, src, dst)


def put(a, ind, v, mode="raise"):
    flat = a.ravel()
    flat[ind] = v
    a[...] = flat.reshape(a.shape)


def asscalar(a):
    """numpy 1.x's `np.asscalar` (removed in numpy 1.23), for 2018 scripts."""
    return a.item()


def unravel_index(indices, shape, order="C"):
    shape = (shape,) if isinstance(shape, (_builtins.int, integer)) else tuple(shape)
    idx = asarray(indices)
    total = 1
    for d in shape:
        total *= d
    if (idx >= total).any() or (idx < 0).any():
        bad = idx.ravel()[logical_or(idx.ravel() >= total, idx.ravel() < 0)][0]
        raise ValueError("index %d is out of bounds for array with size %d" % (bad, total))
    out = []
    rest = idx.astype(int64)
    for d in reversed(shape):
        out.append(rest % d)
        rest = rest // d
    out = tuple(reversed(out))
    if idx.ndim == 0:
        return tuple(x[()] for x in out)
    return out


def ravel_multi_index(multi_index, dims, mode="raise", order="C"):
    out = None
    for i, d in zip(multi_index, dims):
        i = asarray(i, int64)
        if ((i < 0) | (i >= d)).any():
            raise ValueError("invalid entry in coordinates array")
        out = i if out is None else out * d + i
    return out[()] if out.ndim == 0 else out


def apply_along_axis(func1d, axis, arr, *args, **kwargs):
    arr = asarray(arr)
    axis = _normalize_axis(axis, arr.ndim)
    moved = moveaxis(arr, axis, -1)
    outer = moved.shape[:-1]
    flat = moved.reshape(-1, moved.shape[-1])
    results = [asarray(func1d(row, *args, **kwargs)) for row in flat]
    res = stack(results).reshape(outer + results[0].shape)
    if results[0].ndim == 0:
        return res
    return moveaxis(res, -1, axis) if results[0].ndim == 1 else res


class vectorize(object):
    def __init__(self, pyfunc, otypes=None, doc=None, excluded=None, cache=False, signature=None):
        self.pyfunc = pyfunc
        self.otypes = otypes

    def __call__(self, *args):
        arrays = broadcast_arrays(*[asarray(a) for a in args])
        shape_ = arrays[0].shape
        flat = [a.ravel().tolist() for a in arrays]
        out = [self.pyfunc(*vals) for vals in zip(*flat)]
        dt = self.otypes[0] if self.otypes else None
        return array(out, dt).reshape(shape_)


def fromfile(file, dtype=float64, count=-1, sep="", offset=0, like=None):
    if sep == "":
        if hasattr(file, "read"):
            raw = file.read()
        else:
            with open(file, "rb") as f:
                raw = f.read()
        return frombuffer(raw, dtype, count, offset)
    if hasattr(file, "read"):
        text = file.read()
    else:
        with open(file, "r") as f:
            text = f.read()
    if isinstance(text, _builtins.bytes):
        text = text.decode("latin1")
    items = text.split() if sep.strip() == "" else [t for t in text.replace("\n", sep).split(sep) if t.strip()]
    values = [_builtins.float(t) for t in items]
    if count >= 0:
        values = values[:count]
    name = _dtype_name(dtype)
    if name.startswith("int") or name == "bool":
        values = [_builtins.int(v) for v in values]
    return array(values, dtype)


def _text_number(token, kind):
    """One number of `fromstring`'s text, as numpy's text parser reads it
    for a dtype of `kind` (None where numpy stops: unmatched data)."""
    t = token.strip()
    digits = t[1:] if t[:1] in ("+", "-") else t
    if kind in "iu":
        return _builtins.int(t) if digits.isdigit() else None
    if "_" in t or not digits or digits[:1] not in "0123456789.iInN":
        return None
    try:
        value = _builtins.float(t)
    except ValueError:
        return None
    return value != 0 if kind == "b" else value


def fromstring(string, dtype=float64, count=-1, *, sep, like=None):
    """An array of the numbers written in `string`, separated by `sep`
    (any whitespace if `sep` is blank; whitespace around it is ignored).
    numpy 2 removed the binary mode (`sep=""`)."""
    if sep == "":
        raise ValueError("The binary mode of fromstring is removed, use frombuffer instead")
    if isinstance(string, _builtins.bytes):
        string = string.decode("latin1")
    dt = _dtype_name(dtype)
    kind = _DTYPE_INFO[dt][0] if dt in _DTYPE_INFO else "U"
    if kind not in "biuf":
        raise NotImplementedError("fromstring reads numbers into bool, integer or float "
                                  "arrays, not %s" % dt)
    if sep.strip() == "":
        tokens = string.split()
    else:
        tokens = [t.strip() for t in string.split(sep.strip())]
        # a separator may end the text
        if tokens and tokens[-1] == "":
            tokens.pop()
    values = []
    for t in tokens:
        v = _text_number(t, kind)
        if v is None:
            raise ValueError("string or file could not be read to its end due to unmatched data")
        values.append(v)
    if count >= 0:
        if count > len(values):
            raise ValueError("string is smaller than requested size")
        values = values[:count]
    return array(values, dt)


def loadtxt(fname, dtype=float64, comments="#", delimiter=None, converters=None, skiprows=0,
            usecols=None, unpack=False, ndmin=0, encoding=None, max_rows=None, **kwargs):
    if hasattr(fname, "read"):
        lines = fname.read().splitlines()
    else:
        with open(fname, "r") as f:
            lines = f.read().splitlines()
    rows = []
    for line in lines[skiprows:]:
        if isinstance(line, _builtins.bytes):
            line = line.decode("latin1")
        if comments is not None:
            line = line.split(comments, 1)[0]
        line = line.strip()
        if not line:
            continue
        parts = line.split(delimiter)
        if usecols is not None:
            cols = (usecols,) if isinstance(usecols, _builtins.int) else usecols
            parts = [parts[c] for c in cols]
        rows.append([_builtins.float(p) for p in parts])
        if max_rows is not None and len(rows) >= max_rows:
            break
    a = array(rows, dtype)
    if a.ndim == 2 and a.shape[0] == 1 and ndmin < 2:
        a = a.reshape(-1)
    if a.ndim == 2 and a.shape[1] == 1 and ndmin < 2:
        a = a.reshape(-1)
    return a.T if unpack else a


# ---------------------------------------------------------------- files


def save(file, arr, allow_pickle=True, fix_imports=True):
    from numpy import lib as _lib
    _lib._save(file, arr)


def savez(file, *args, allow_pickle=True, **kwds):
    from numpy import lib as _lib
    _lib._savez(file, args, kwds, False)


def savez_compressed(file, *args, allow_pickle=True, **kwds):
    from numpy import lib as _lib
    _lib._savez(file, args, kwds, True)


def load(file, mmap_mode=None, allow_pickle=False, fix_imports=True, encoding="ASCII"):
    from numpy import lib as _lib
    return _lib._load(file)


from numpy import random  # noqa: E402
from numpy import linalg  # noqa: E402


# Names defined in submodules that load on first use (few scripts use them).
_LAZY = {"nditer": "_nditer", "ndenumerate": "_nditer", "ndindex": "_nditer"}


def __getattr__(name):
    # `numpy.testing` (which imports unittest) and `numpy.lib` load on first
    # use, as numpy 2 loads `testing`: most scripts use neither.
    if name in ("testing", "lib"):
        import importlib
        return importlib.import_module("numpy." + name)
    if name in _LAZY:
        import importlib
        value = getattr(importlib.import_module("numpy." + _LAZY[name]), name)
        globals()[name] = value
        return value
    raise AttributeError("module 'numpy' has no attribute '%s'" % name)

# `from numpy import *` exports what numpy 2's `__all__` names (numpy's own
# list, with what fluidc's numpy has of it).
_NUMPY_ALL = (
    "False_ ScalarType True_ __array_namespace_info__ __version__ abs absolute acos acosh add "
    "all allclose amax amin angle any append apply_along_axis apply_over_axes arange arccos "
    "arccosh arcsin arcsinh arctan arctan2 arctanh argmax argmin argpartition argsort argwhere "
    "around array array2string array_equal array_equiv array_repr array_split array_str "
    "asanyarray asarray asarray_chkfinite ascontiguousarray asfortranarray asin asinh asmatrix "
    "astype atan atan2 atanh atleast_1d atleast_2d atleast_3d average bartlett base_repr "
    "binary_repr bincount bitwise_and bitwise_count bitwise_invert bitwise_left_shift "
    "bitwise_not bitwise_or bitwise_right_shift bitwise_xor blackman block bmat bool bool_ "
    "broadcast broadcast_arrays broadcast_shapes broadcast_to busday_count busday_offset "
    "busdaycalendar byte bytes_ c_ can_cast cbrt cdouble ceil char character choose clip "
    "clongdouble column_stack common_type complex128 complex256 complex64 complexfloating "
    "compress concat concatenate conj conjugate convolve copy copysign copyto core corrcoef "
    "correlate cos cosh count_nonzero cov cross csingle ctypeslib cumprod cumsum "
    "cumulative_prod cumulative_sum datetime64 datetime_as_string datetime_data deg2rad degrees "
    "delete diag diag_indices diag_indices_from diagflat diagonal diff digitize divide divmod "
    "dot double dsplit dstack dtype dtypes e ediff1d einsum einsum_path emath empty empty_like "
    "equal errstate euler_gamma exceptions exp exp2 expand_dims expm1 extract eye f2py fabs fft "
    "fill_diagonal finfo fix flatiter flatnonzero flexible flip fliplr flipud float128 float16 "
    "float32 float64 float_power floating floor floor_divide fmax fmin fmod "
    "format_float_positional format_float_scientific frexp from_dlpack frombuffer fromfile "
    "fromfunction fromiter frompyfunc fromregex fromstring full full_like gcd generic "
    "genfromtxt geomspace get_include get_printoptions getbufsize geterr geterrcall gradient "
    "greater greater_equal half hamming hanning heaviside histogram histogram2d "
    "histogram_bin_edges histogramdd hsplit hstack hypot i0 identity iinfo imag index_exp "
    "indices inexact inf info inner insert int16 int32 int64 int8 int_ intc integer interp "
    "intersect1d intp invert is_busday isclose iscomplex iscomplexobj isdtype isfinite "
    "isfortran isin isinf isnan isnat isneginf isposinf isreal isrealobj isscalar issubdtype "
    "iterable ix_ kaiser kron lcm ldexp left_shift less less_equal lexsort lib linalg linspace "
    "little_endian load loadtxt log log10 log1p log2 logaddexp logaddexp2 logical_and "
    "logical_not logical_or logical_xor logspace long longdouble longlong ma mask_indices "
    "matmul matrix matrix_transpose matvec max maximum may_share_memory mean median memmap "
    "meshgrid mgrid min min_scalar_type minimum mintypecode mod modf moveaxis multiply nan "
    "nan_to_num nanargmax nanargmin nancumprod nancumsum nanmax nanmean nanmedian nanmin "
    "nanpercentile nanprod nanquantile nanstd nansum nanvar ndarray ndenumerate ndim ndindex "
    "nditer negative nested_iters newaxis nextafter nonzero not_equal number object_ ogrid ones "
    "ones_like outer packbits pad partition percentile permute_dims pi piecewise place poly "
    "poly1d polyadd polyder polydiv polyfit polyint polymul polynomial polysub polyval positive "
    "pow power printoptions prod promote_types ptp put put_along_axis putmask quantile r_ "
    "rad2deg radians random ravel ravel_multi_index real real_if_close rec recarray reciprocal "
    "record remainder repeat require reshape resize result_type right_shift rint roll rollaxis "
    "roots rot90 round row_stack s_ save savetxt savez savez_compressed sctypeDict searchsorted "
    "select set_printoptions setbufsize setdiff1d seterr seterrcall setxor1d shape "
    "shares_memory short show_config show_runtime sign signbit signedinteger sin sinc single "
    "sinh size sort sort_complex spacing split sqrt square squeeze stack std str_ strings "
    "subtract sum swapaxes take take_along_axis tan tanh tensordot test testing tile "
    "timedelta64 trace transpose trapezoid tri tril tril_indices tril_indices_from trim_zeros "
    "triu triu_indices triu_indices_from true_divide trunc typecodes typename typing ubyte "
    "ufunc uint uint16 uint32 uint64 uint8 uintc uintp ulong ulonglong union1d unique "
    "unique_all unique_counts unique_inverse unique_values unpackbits unravel_index "
    "unsignedinteger unstack unwrap ushort vander var vdot vecdot vecmat vectorize void vsplit "
    "vstack where zeros zeros_like "
)
__all__ = [_n for _n in _NUMPY_ALL.split() if _n in globals() or _n in _LAZY]
