"""numpy (a minimal first shell; see src/numpy/mod.rs)."""
import _numpy


class dtype(object):
    def __init__(self, name):
        if isinstance(name, dtype):
            name = name.name
        elif isinstance(name, type) and hasattr(name, "_dtype_name"):
            name = name._dtype_name
        elif name is float:
            name = "float64"
        elif name is int:
            name = "int64"
        elif name is bool:
            name = "bool"
        self.name = name

    @property
    def kind(self):
        return {"bool": "b", "int32": "i", "int64": "i", "float32": "f", "float64": "f"}[self.name]

    def __eq__(self, other):
        try:
            return self.name == dtype(other).name
        except Exception:
            return False

    def __hash__(self):
        return hash(self.name)

    def __repr__(self):
        return "dtype('%s')" % self.name

    def __str__(self):
        return self.name


class float32(object):
    _dtype_name = "float32"


class float64(object):
    _dtype_name = "float64"


class int32(object):
    _dtype_name = "int32"


class int64(object):
    _dtype_name = "int64"


class bool_(object):
    _dtype_name = "bool"


class ndarray(object):
    @classmethod
    def _wrap(cls, h):
        a = cls.__new__(cls)
        a._h = h
        return a

    @property
    def shape(self):
        return self._h.shape

    @property
    def ndim(self):
        return len(self._h.shape)

    @property
    def dtype(self):
        return dtype(self._h.dtype)

    def tolist(self):
        return _numpy.tolist(self._h)

    def flatten(self):
        return ndarray._wrap(_numpy.reshape(self._h, [-1]))

    def astype(self, d):
        return ndarray._wrap(_numpy.astype(self._h, dtype(d).name))

    def reshape(self, *shape):
        if len(shape) == 1 and isinstance(shape[0], (list, tuple)):
            shape = shape[0]
        return ndarray._wrap(_numpy.reshape(self._h, list(shape)))

    def __repr__(self):
        return _numpy.format(self._h, "repr")

    def __str__(self):
        return _numpy.format(self._h, "str")

    def __float__(self):
        return float(_numpy.tolist(_numpy.reshape(self._h, [-1]))[0])


def array(obj, dtype=None):
    if hasattr(obj, "__array__") and not isinstance(obj, ndarray):
        obj = obj.__array__()
    return ndarray._wrap(_numpy.from_py(obj, None if dtype is None else globals()["dtype"](dtype).name))


def asarray(obj, dtype=None):
    if isinstance(obj, ndarray) and dtype is None:
        return obj
    return array(obj, dtype)


def zeros(shape, dtype="float64"):
    import builtins
    n = 1
    for d in shape:
        n *= d
    return array([0] * n, dtype).reshape(list(shape))
