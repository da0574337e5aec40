"""numpy._core.multiarray: the functions numpy's pickles call.

An array pickles as `_reconstruct(ndarray, (0,), b'b')` followed by the
array's `__setstate__((version, shape, dtype, is_fortran, rawdata))`; a
scalar as `scalar(dtype, rawdata)`.
"""
import numpy as _np


def _reconstruct(subtype, shape, dtype):
    """An empty array of class `subtype`, whose `__setstate__` then gives
    it its data (numpy makes one of `shape` and `dtype`, both replaced)."""
    if not (isinstance(subtype, type) and issubclass(subtype, _np.ndarray)):
        raise TypeError("_reconstruct: First argument must be a sub-type of ndarray")
    return subtype._wrap_plain(_np.zeros((0,), dtype="float64")._h)


def scalar(dtype, obj=None):
    """The numpy scalar of `dtype` whose bytes are `obj`."""
    dtype = _np.dtype(dtype)
    if obj is None:
        obj = b"\0" * dtype.itemsize
    if isinstance(obj, str):
        obj = obj.encode("latin1")
    if not isinstance(obj, bytes):
        raise TypeError("initializing object must be a bytes object")
    if len(obj) < dtype.itemsize:
        raise ValueError("initialization string is too small")
    return _np.frombuffer(obj, dtype=dtype, count=1)[0]
