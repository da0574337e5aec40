"""paddle.fluid.initializer: the startup ops that give parameters their
first values, as 1.x's `initializer.py` prepends them to the startup
program's block. A seed of 0 takes the program's `random_seed`."""
import math

import numpy as np

from . import framework

__all__ = [
    "Constant", "Uniform", "Normal", "TruncatedNormal", "Xavier", "MSRA",
    "Bilinear", "NumpyArrayInitializer", "ConstantInitializer",
    "UniformInitializer", "NormalInitializer", "TruncatedNormalInitializer",
    "XavierInitializer", "MSRAInitializer", "BilinearInitializer",
    "force_init_on_cpu", "init_on_cpu",
]


_force_init_on_cpu_ = False


def force_init_on_cpu():
    """Whether the ops that fill constants are inside `init_on_cpu()`."""
    return _force_init_on_cpu_


class init_on_cpu(object):
    """`with init_on_cpu():` the constants filled inside (Constant
    initializers, `fill_constant`, `less_than`'s result) are kept on the
    CPU: their ops get `force_cpu`, as in 1.x. fluidc runs on the CPU, so
    only the attribute changes."""

    def __enter__(self):
        global _force_init_on_cpu_
        self._pre_state = _force_init_on_cpu_
        _force_init_on_cpu_ = True
        return self

    def __exit__(self, *exc):
        global _force_init_on_cpu_
        _force_init_on_cpu_ = self._pre_state
        return False


def _compute_fans(shape):
    """Paddle's `_compute_fans`."""
    shape = list(shape)
    if not shape:
        return 1, 1
    if len(shape) == 1:
        return shape[0], shape[0]
    if len(shape) == 2:
        return shape[0], shape[1]
    receptive = 1
    for d in shape[2:]:
        receptive *= d
    return shape[1] * receptive, shape[0] * receptive


def _check_number(value, name):
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise TypeError("%s must be a number, not %s" % (name, type(value).__name__))


class Initializer(object):
    def __call__(self, param, block):
        raise NotImplementedError()

    def _seed(self, block):
        if self._seed_value == 0:
            return block.program.random_seed
        return self._seed_value

    @staticmethod
    def _shape(var):
        return [int(d) for d in var.shape]


class ConstantInitializer(Initializer):
    def __init__(self, value=0.0, force_cpu=False):
        _check_number(value, "value")
        self._value = value
        self._force_cpu = force_cpu

    def __call__(self, var, block):
        return block._prepend_op(
            type="fill_constant", outputs={"Out": var},
            attrs={"shape": self._shape(var), "dtype": var.dtype,
                   "value": float(self._value), "str_value": str(float(self._value)),
                   "force_cpu": bool(self._force_cpu or force_init_on_cpu())})


class UniformInitializer(Initializer):
    def __init__(self, low=-1.0, high=1.0, seed=0):
        _check_number(low, "low")
        _check_number(high, "high")
        self._low, self._high, self._seed_value = low, high, seed

    def __call__(self, var, block):
        return block._prepend_op(
            type="uniform_random", outputs={"Out": var},
            attrs={"shape": self._shape(var), "dtype": var.dtype,
                   "min": float(self._low), "max": float(self._high),
                   "seed": self._seed(block)})


class NormalInitializer(Initializer):
    def __init__(self, loc=0.0, scale=1.0, seed=0):
        _check_number(loc, "loc")
        _check_number(scale, "scale")
        self._mean, self._std, self._seed_value = loc, scale, seed

    def __call__(self, var, block):
        return block._prepend_op(
            type="gaussian_random", outputs={"Out": var},
            attrs={"shape": self._shape(var), "dtype": var.dtype,
                   "mean": float(self._mean), "std": float(self._std),
                   "seed": self._seed(block)})


class TruncatedNormalInitializer(Initializer):
    def __init__(self, loc=0.0, scale=1.0, seed=0):
        _check_number(loc, "loc")
        _check_number(scale, "scale")
        self._mean, self._std, self._seed_value = loc, scale, seed

    def __call__(self, var, block):
        return block._prepend_op(
            type="truncated_gaussian_random", outputs={"Out": var},
            attrs={"shape": self._shape(var), "dtype": var.dtype,
                   "mean": float(self._mean), "std": float(self._std),
                   "seed": self._seed(block)})


class XavierInitializer(Initializer):
    def __init__(self, uniform=True, fan_in=None, fan_out=None, seed=0):
        self._uniform, self._fan_in, self._fan_out = uniform, fan_in, fan_out
        self._seed_value = seed

    def __call__(self, var, block):
        f_in, f_out = _compute_fans(var.shape)
        fan_in = f_in if self._fan_in is None else self._fan_in
        fan_out = f_out if self._fan_out is None else self._fan_out
        if self._uniform:
            limit = math.sqrt(6.0 / float(fan_in + fan_out))
            return UniformInitializer(-float(limit), float(limit), self._seed_value)(var, block)
        std = math.sqrt(2.0 / float(fan_in + fan_out))
        return NormalInitializer(0.0, float(std), self._seed_value)(var, block)


class MSRAInitializer(Initializer):
    def __init__(self, uniform=True, fan_in=None, seed=0):
        self._uniform, self._fan_in, self._seed_value = uniform, fan_in, seed

    def __call__(self, var, block):
        f_in, _ = _compute_fans(var.shape)
        fan_in = f_in if self._fan_in is None else self._fan_in
        if self._uniform:
            limit = math.sqrt(6.0 / float(fan_in))
            return UniformInitializer(-float(limit), float(limit), self._seed_value)(var, block)
        std = math.sqrt(2.0 / float(fan_in))
        return NormalInitializer(0.0, float(std), self._seed_value)(var, block)


class BilinearInitializer(Initializer):
    """The weights of a bilinear upsampling `conv2d_transpose`."""

    def __call__(self, var, block):
        shape = self._shape(var)
        if len(shape) != 4 or shape[2] != shape[3]:
            raise ValueError("the shape of a bilinear filter must be [C, 1, K, K]")
        size = shape[3]
        f = np.ceil(size / 2.0)
        c = (2 * f - 1 - f % 2) / (2.0 * f)
        weight = np.zeros(shape, dtype="float32").flatten()
        n = len(weight.tolist())
        values = []
        for i in range(n):
            x = i % size
            y = (i // size) % size
            values.append(float((1 - abs(x / f - c)) * (1 - abs(y / f - c))))
        return NumpyArrayInitializer(np.array(values, dtype="float32").reshape(shape))(var, block)


class NumpyArrayInitializer(Initializer):
    """An `assign_value` of the array's elements (Paddle 3's one `values`
    attribute: float64 scalars for floats, longs for ints)."""

    def __init__(self, value):
        if not isinstance(value, np.ndarray):
            raise TypeError("NumpyArrayInitializer takes a numpy array, not %s" % type(value).__name__)
        self._value = value

    def __call__(self, var, block):
        ints = framework.convert_dtype(var.dtype) in ("int32", "int64", "int8", "uint8", "int16")
        flat = self._value.flatten().tolist()
        values = [int(v) for v in flat] if ints else [float(v) for v in flat]
        return block._prepend_op(
            type="assign_value", outputs={"Out": var},
            attrs={"dtype": var.dtype, "shape": [int(d) for d in self._value.shape],
                   "values": values})


Constant = ConstantInitializer
Uniform = UniformInitializer
Normal = NormalInitializer
TruncatedNormal = TruncatedNormalInitializer
Xavier = XavierInitializer
MSRA = MSRAInitializer
Bilinear = BilinearInitializer
