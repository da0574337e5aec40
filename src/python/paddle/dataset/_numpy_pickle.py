"""Loading the pickles numpy 1.x wrote (CIFAR's python batches), whose
arrays name `numpy.core.multiarray._reconstruct` and `numpy.dtype`.

fluidc's numpy has neither `numpy.core` nor uint8 arrays, so `load`
unpickles such an array as a `PickledArray`: its shape, dtype and raw
bytes. Iterating over it gives its rows (or elements) as fluidc arrays;
uint8 and uint16 data come out as int32 arrays of the same values (what
a dataset reader computes from them, `row / 255.0`, is then numpy's).
"""
import io
import pickle

import numpy


def _text(s):
    return s.decode("latin1") if isinstance(s, bytes) else s


class PickledDtype(object):
    """What `numpy.dtype(name, align, copy)` unpickles to."""

    def __init__(self, name, align=False, copy=False):
        self.name = _text(name)
        self.byteorder = "="

    def __setstate__(self, state):
        # (version, byteorder, subdtype, names, fields, elsize, alignment,
        # flags[, metadata]); only plain dtypes are supported.
        if state[2] is not None or state[3] is not None:
            raise NotImplementedError(
                "fluidc cannot unpickle numpy structured or sub-array dtypes")
        self.byteorder = _text(state[1])


class PickledArray(object):
    """What `numpy.core.multiarray._reconstruct` and the array's state
    unpickle to."""

    def __init__(self):
        self.shape = (0,)
        self.dtype = None
        self.fortran = False
        self.data = b""

    def __setstate__(self, state):
        if len(state) == 5:
            state = state[1:]
        shape, dtype, fortran, data = state
        if not isinstance(data, (bytes, str)):
            raise NotImplementedError("fluidc cannot unpickle numpy object arrays")
        self.shape = tuple(shape)
        self.dtype = dtype
        self.fortran = bool(fortran)
        self.data = data.encode("latin1") if isinstance(data, str) else data

    def __len__(self):
        if not self.shape:
            raise TypeError("len() of unsized object")
        return self.shape[0]

    def __iter__(self):
        if not self.shape:
            raise TypeError("iteration over a 0-d array")
        whole = self.fortran and len(self.shape) > 1
        array = self.to_numpy() if whole else None
        n = self.shape[0]
        step = len(self.data) // n if n else 0
        for i in range(n):
            if whole:
                yield array[i]
            else:
                row = _from_bytes(self.data[i * step:(i + 1) * step], self.dtype)
                yield row.reshape(self.shape[1:]) if len(self.shape) > 1 else row[0]

    def to_numpy(self):
        """The whole array as a fluidc array."""
        flat = _from_bytes(self.data, self.dtype)
        if self.fortran:
            return flat.reshape(self.shape[::-1]).transpose()
        return flat.reshape(self.shape)


def _from_bytes(data, dtype):
    """A 1-D fluidc array of `data`'s items of numpy dtype `dtype`."""
    name = numpy.dtype(dtype.name).name
    big = dtype.byteorder == ">"
    if name in ("uint8", "uint16"):
        width = 1 if name == "uint8" else 2
        n = len(data) // width
        wide = bytearray(4 * n)
        for k in range(width):
            # Little-endian int32 words: the item's bytes, then zeros.
            src = width - 1 - k if big else k
            wide[k::4] = data[src::width]
        return numpy.frombuffer(bytes(wide), dtype="int32")
    if big and numpy.dtype(name).itemsize > 1:
        raise NotImplementedError(
            "fluidc cannot unpickle big-endian numpy arrays (%s)" % name)
    return numpy.frombuffer(data, dtype=name)


def _reconstruct(subtype, shape, dtype):
    return PickledArray()


def _scalar(dtype, data=None):
    return _from_bytes(_text(data).encode("latin1") if isinstance(data, str) else data,
                       dtype)[0]


_NUMPY_GLOBALS = {
    ("numpy.core.multiarray", "_reconstruct"): _reconstruct,
    ("numpy._core.multiarray", "_reconstruct"): _reconstruct,
    ("numpy.core.multiarray", "scalar"): _scalar,
    ("numpy._core.multiarray", "scalar"): _scalar,
    ("numpy", "dtype"): PickledDtype,
    ("numpy", "ndarray"): numpy.ndarray,
}


class Unpickler(pickle.Unpickler):
    """pickle's Unpickler, with numpy 1.x's array globals mapped as above."""

    def find_class(self, module, name):
        found = _NUMPY_GLOBALS.get((module, name))
        if found is not None:
            return found
        return super().find_class(module, name)


def load(file, encoding="ASCII"):
    """`pickle.load(file, encoding=...)` for pickles with numpy arrays."""
    return Unpickler(file, encoding=encoding).load()


def loads(data, encoding="ASCII"):
    return load(io.BytesIO(data), encoding=encoding)
