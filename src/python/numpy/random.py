"""numpy.random: numpy's legacy RandomState, with numpy's exact numbers
(MT19937 and the legacy algorithms, src/host/random/numpy.rs); the
module's functions use one global instance, seeded from the clock until
`seed` is called."""
import math as _math

import _numpy
import numpy as _np

__all__ = [
    "RandomState", "seed", "rand", "randn", "random", "random_sample", "sample", "ranf",
    "uniform", "normal", "standard_normal", "randint", "random_integers", "choice", "shuffle",
    "permutation", "exponential", "standard_exponential", "get_state", "set_state",
    "binomial", "multinomial", "poisson",
]

# numpy's bound on `lam` (int64's max less ten of its square roots).
_POISSON_LAM_MAX = 9223372036854775807 - _math.sqrt(9223372036854775807) * 10


def _dtype_arg(dtype):
    """randint's dtype: None for Python's int (a Python int result), else
    a numpy name."""
    if dtype is int:
        return None
    if dtype is bool:
        return "bool"
    return _np.dtype(dtype).name


class _State(object):
    """The generator state `get_state` gives."""

    def __init__(self, s):
        self._s = s

    def __repr__(self):
        return "<MT19937 state>"


class RandomState(object):
    """numpy.random.RandomState(seed=None)."""

    def __init__(self, seed=None):
        self._s = _numpy.RandomState(seed)

    def __repr__(self):
        return "RandomState(MT19937)"

    def seed(self, seed=None):
        self._s.seed(seed)

    def get_state(self, legacy=True):
        # numpy gives the 624 MT19937 words; fluidc keeps them in an opaque
        # copy of the generator, which `set_state` takes back.
        return ("MT19937", _State(self._s._copy()), 624, 0, 0.0)

    def set_state(self, state):
        keys = state[1] if isinstance(state, tuple) else state.get("state", {}).get("key")
        if not isinstance(keys, _State):
            raise NotImplementedError("fluidc's numpy.random.set_state takes what get_state gave")
        self._s._restore(keys._s)

    def random_sample(self, size=None):
        return self._s.random_sample(size)

    random = random_sample
    sample = random_sample
    ranf = random_sample

    def rand(self, *args):
        return self._s.random_sample(args if args else None)

    def randn(self, *args):
        return self._s.standard_normal(args if args else None)

    def standard_normal(self, size=None):
        return self._s.standard_normal(size)

    def normal(self, loc=0.0, scale=1.0, size=None):
        return self._s.normal(loc, scale, size)

    def uniform(self, low=0.0, high=1.0, size=None):
        return self._s.uniform(low, high, size)

    def standard_exponential(self, size=None):
        u = self._s.random_sample(size)
        if size is None:
            return -_math.log(1.0 - u)
        return -_np.log(1.0 - u)

    def exponential(self, scale=1.0, size=None):
        if _np.any(_np.signbit(scale)):
            raise ValueError("scale < 0")
        return _np.multiply(scale, self.standard_exponential(size)) if size is not None or _np.ndim(scale) else scale * self.standard_exponential()

    def randint(self, low, high=None, size=None, dtype=int):
        # numpy takes float bounds (2018 tests drew randint(0, 7.0)).
        low = int(low) if isinstance(low, float) else low
        high = int(high) if isinstance(high, float) else high
        d = _dtype_arg(dtype)
        r = self._s.randint(low, high, size, d)
        if size is None and dtype is bool:
            return bool(r)
        return r

    def random_integers(self, low, high=None, size=None):
        if high is None:
            import warnings as _warnings  # on first use: importing it costs start-up
            _warnings.warn("This function is deprecated. Please call randint(1, {low} + 1) instead".format(low=low),
                           DeprecationWarning, stacklevel=2)
            high = low
            low = 1
        else:
            import warnings as _warnings  # on first use: importing it costs start-up
            _warnings.warn("This function is deprecated. Please call randint({low}, {high} + 1) instead".format(
                low=low, high=high), DeprecationWarning, stacklevel=2)
        return self._s.randint(low, int(high) + 1, size, "int64")

    def choice(self, a, size=None, replace=True, p=None):
        if isinstance(a, (list, tuple)) and a and not all(
                isinstance(v, (int, float, bool, _np.generic, _np.ndarray, list, tuple)) for v in a):
            # A list of other objects (strings): numpy draws indices the same way.
            if size is not None:
                return _np.asarray(a)[self._s.choice(len(a), size, bool(replace), p)]
            return a[self._s.choice(len(a), None, bool(replace), p)]
        if isinstance(a, _np.ndarray) and a._s is not None:
            # An array of str: the same draws of indices.
            if a.ndim != 1:
                raise ValueError("a must be 1-dimensional")
            return a[self._s.choice(len(a), size, bool(replace), p)]
        return self._s.choice(a, size, bool(replace), p)

    def shuffle(self, x):
        n = len(x)
        if n <= 1:
            return
        perm = self._s._permutation(n)
        if isinstance(x, _np.ndarray):
            x[...] = x[perm]
            return
        items = [x[i] for i in perm.tolist()]
        for k, v in enumerate(items):
            x[k] = v

    def permutation(self, x):
        if isinstance(x, (int, _np.integer)):
            return self._s._permutation(x)
        arr = _np.asarray(x)
        if arr.ndim < 1:
            raise IndexError("x must be an integer or at least 1-dimensional")
        return arr[self._s._permutation(len(arr))]

    def binomial(self, n, p, size=None):
        # numpy's legacy draws, element by element over the broadcast
        # parameters (src/host/random/numpy.rs).
        n_arr, p_arr = _np.asarray(n), _np.asarray(p, dtype="float64")
        if _np.any(_np.isnan(p_arr)) or _np.any(p_arr < 0) or _np.any(p_arr > 1):
            raise ValueError("p < 0, p > 1 or p is NaN")
        if _np.any(n_arr < 0):
            raise ValueError("n < 0")
        if size is None and n_arr.ndim == 0 and p_arr.ndim == 0:
            return self._s._binomial(int(n_arr), float(p_arr))
        shape = _np.broadcast_arrays(n_arr, p_arr)[0].shape if size is None else size
        ns = _np.broadcast_to(n_arr, shape).ravel().tolist()
        ps = _np.broadcast_to(p_arr, shape).ravel().tolist()
        draws = [self._s._binomial(int(k), float(q)) for k, q in zip(ns, ps)]
        return _np.array(draws, dtype="int64").reshape(shape)

    def poisson(self, lam=1.0, size=None):
        # numpy's legacy draws, element by element (src/host/random/numpy.rs).
        lam_arr = _np.asarray(lam, dtype="float64")
        scalar = size is None and lam_arr.ndim == 0
        nan = "is NaN" if lam_arr.ndim == 0 else "contains NaNs"
        if _np.any(_np.isnan(lam_arr)) or _np.any(lam_arr < 0):
            raise ValueError("lam < 0 or lam " + nan)
        if _np.any(lam_arr > _POISSON_LAM_MAX):
            raise ValueError("lam value too large")
        if scalar:
            return self._s._poisson(float(lam_arr))
        shape = lam_arr.shape if size is None else size
        lams = _np.broadcast_to(lam_arr, shape).ravel().tolist()
        draws = [self._s._poisson(float(x)) for x in lams]
        return _np.array(draws, dtype="int64").reshape(shape)

    def multinomial(self, n, pvals, size=None):
        pv = _np.asarray(pvals, dtype="float64")
        if pv.ndim != 1:
            raise ValueError("object too deep for desired array")
        if pv.size and float(_np.sum(pv[:-1])) > 1.0 + 1e-12:
            raise ValueError("sum(pvals[:-1]) > 1.0")
        shape = () if size is None else ((size,) if isinstance(size, int) else tuple(size))
        count = int(_np.prod(shape)) if shape else 1
        ps = pv.tolist()
        rows = [self._s._multinomial(int(n), ps) for _ in range(count)]
        return _np.array(rows, dtype="int64").reshape(shape + (len(ps),))


_rand = RandomState()

seed = _rand.seed
get_state = _rand.get_state
set_state = _rand.set_state
random_sample = _rand.random_sample
random = _rand.random_sample
sample = _rand.random_sample
ranf = _rand.random_sample
rand = _rand.rand
randn = _rand.randn
standard_normal = _rand.standard_normal
normal = _rand.normal
uniform = _rand.uniform
standard_exponential = _rand.standard_exponential
exponential = _rand.exponential
randint = _rand.randint
random_integers = _rand.random_integers
choice = _rand.choice
shuffle = _rand.shuffle
permutation = _rand.permutation
binomial = _rand.binomial
poisson = _rand.poisson
multinomial = _rand.multinomial
