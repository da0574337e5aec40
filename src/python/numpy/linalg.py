"""numpy.linalg: norms (what 2018 scripts compute expected values with).
Solvers, inverses and decompositions are LAPACK's in numpy and are not
here."""
import numpy as _np


class LinAlgError(ValueError):
    pass


LinAlgError.__module__ = "numpy.linalg"


def norm(x, ord=None, axis=None, keepdims=False):
    x = _np.asarray(x)
    if x.dtype.kind != "f":
        x = x.astype(float)
    if axis is None:
        if ord is None or (ord == "fro" and x.ndim == 2) or (ord == 2 and x.ndim == 1):
            flat = x.ravel()
            r = _np.sqrt(_np.dot(flat, flat))
            if keepdims:
                return r.reshape((1,) * x.ndim)
            return r
        if x.ndim == 1:
            axis = 0
        else:
            raise NotImplementedError("fluidc's numpy has no matrix norm ord=%r" % (ord,))
    if isinstance(axis, tuple):
        if ord not in (None, "fro"):
            raise NotImplementedError("fluidc's numpy has no matrix norm ord=%r" % (ord,))
        return _np.sqrt(_np.sum(x * x, axis=axis, keepdims=keepdims))
    a = _np.abs(x)
    if ord is None or ord == 2:
        return _np.sqrt(_np.sum(x * x, axis=axis, keepdims=keepdims))
    if ord == _np.inf:
        return _np.max(a, axis=axis, keepdims=keepdims)
    if ord == -_np.inf:
        return _np.min(a, axis=axis, keepdims=keepdims)
    if ord == 0:
        return _np.sum(x != 0, axis=axis, keepdims=keepdims).astype(x.dtype)
    if ord == 1:
        return _np.sum(a, axis=axis, keepdims=keepdims)
    return _np.sum(a ** ord, axis=axis, keepdims=keepdims) ** (1.0 / ord)


def _lapack(name):
    def missing(*args, **kwargs):
        raise NotImplementedError("fluidc's numpy has no numpy.linalg.%s (LAPACK)" % name)
    missing.__name__ = name
    return missing


inv = _lapack("inv")
pinv = _lapack("pinv")
det = _lapack("det")
solve = _lapack("solve")
eig = _lapack("eig")
eigh = _lapack("eigh")
svd = _lapack("svd")
qr = _lapack("qr")
cholesky = _lapack("cholesky")
lstsq = _lapack("lstsq")
matrix_rank = _lapack("matrix_rank")
