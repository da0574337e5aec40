"""`scipy.special`'s logistic sigmoid (`expit`), its inverse (`logit`) and
the error function (`erf`) over numpy arrays and scalars, elementwise,
keeping a float32 input float32 as scipy's ufuncs do."""
import math

import numpy as np


def _float(x):
    a = np.asarray(x)
    return a if a.dtype in (np.float32, np.float64) else a.astype("float64")


def _result(a, like, scalar):
    out = a.astype(like.dtype)
    return out[()] if scalar else out


def expit(x):
    a = _float(x)
    return _result(1.0 / (1.0 + np.exp(-a.astype("float64"))), a, np.ndim(x) == 0)


def logit(x):
    a = _float(x).astype("float64")
    with np.errstate(divide="ignore"):
        return _result(np.log(a / (1.0 - a)), _float(x), np.ndim(x) == 0)


def erf(x):
    a = _float(x)
    flat = [math.erf(v) for v in a.astype("float64").ravel().tolist()]
    return _result(np.array(flat, dtype="float64").reshape(a.shape), a, np.ndim(x) == 0)
