"""1.6's `fluid.layers.distributions`: Uniform, Normal, Categorical and
MultivariateNormalDiag, whose methods build their results from layers
(1.6's were Python over layers too), in the order 1.6 built them, so
that the values are 1.6's to the last bit.

Arguments are floats, lists or numpy arrays (made float32, with a
warning for another dtype as 1.6 gave, broadcast to one shape and
assigned into tensors) or all Variables (then the batch size may be
unknown until run time)."""
import math
import warnings

import numpy as np

from ..framework import Variable
from . import control_flow
from . import nn
from . import ops
from . import tensor

__all__ = ["Uniform", "Normal", "Categorical", "MultivariateNormalDiag"]


class Distribution(object):
    """What 1.6's distributions shared: the methods each overrides, and
    the argument handling."""

    def sample(self):
        raise NotImplementedError

    def entropy(self):
        raise NotImplementedError

    def kl_divergence(self, other):
        raise NotImplementedError

    def log_prob(self, value):
        raise NotImplementedError

    def _validate_args(self, *args):
        """True when the arguments are Variables; Variables mixed with
        numbers are refused."""
        variables = [isinstance(a, Variable) for a in args]
        if any(variables) and not all(variables):
            raise ValueError('if one argument is Variable, all arguments should be Variable')
        return any(variables)

    def _to_variable(self, *args):
        """The arguments as float32 tensors of their broadcast shape (a
        float is a `[1]` array)."""
        arrays = []
        for arg in args:
            assert isinstance(arg, (float, list, np.ndarray, Variable)), \
                "type of input args must be float, list, numpy.ndarray or Variable."
            array = np.zeros(1) + arg if isinstance(arg, float) else np.array(arg)
            if str(array.dtype) != 'float32':
                warnings.warn("data type of argument only support float32, your argument will "
                              "be convert to float32.")
                array = array.astype('float32')
            arrays.append(array)
        broadcast = np.broadcast_arrays(*arrays)
        out = []
        for array in broadcast:
            var = tensor.create_tensor(dtype=array.dtype)
            tensor.assign(np.ascontiguousarray(array), var)
            out.append(var)
        return tuple(out)


class _LocationScale(Distribution):
    """Uniform's and Normal's two parameters and their sampling: `shape +
    batch shape` draws, each `draw * spread + shift`; for float
    arguments, of `shape` alone."""

    def _arguments(self, first, second):
        self.all_arg_is_float = False
        self.batch_size_unknown = False
        if self._validate_args(first, second):
            self.batch_size_unknown = True
            return first, second
        if isinstance(first, float) and isinstance(second, float):
            self.all_arg_is_float = True
        return self._to_variable(first, second)

    def _sample(self, shape, seed, both, shift, spread, random_like, random):
        batch_shape = list(both.shape)
        output_shape = shape + batch_shape
        if self.batch_size_unknown:
            zeros = tensor.fill_constant_batch_size_like(both, batch_shape + shape, shift.dtype,
                                                         0.)
            draws = random_like(zeros, zeros.shape, seed)
            return nn.reshape(draws * (zeros + spread) + shift, output_shape)
        draws = random(output_shape, seed)
        output = draws * (tensor.zeros(output_shape, dtype=shift.dtype) + spread) + shift
        return nn.reshape(output, shape) if self.all_arg_is_float else output


class Uniform(_LocationScale):
    """1.6's uniform distribution on `[low, high)`."""

    def __init__(self, low, high):
        self.low, self.high = self._arguments(low, high)

    def sample(self, shape, seed=0):
        """`shape + batch shape` samples (`shape` for float bounds). As
        1.6's, `low + (high - low) * u` with `u` drawn by
        `uniform_random`'s defaults, from [-1, 1)."""
        return self._sample(
            shape, seed, self.low + self.high, self.low, self.high - self.low,
            lambda like, dims, seed: nn.uniform_random_batch_size_like(
                like, dims, min=0., max=1., seed=seed),
            lambda dims, seed: ops.uniform_random(dims, seed=seed))

    def log_prob(self, value):
        """`log(1 / (high - low))` strictly inside the bounds, -inf
        elsewhere."""
        inside = (tensor.cast(control_flow.less_than(self.low, value), dtype=value.dtype) *
                  tensor.cast(control_flow.less_than(value, self.high), dtype=value.dtype))
        return ops.log(inside) - ops.log(self.high - self.low)

    def entropy(self):
        return ops.log(self.high - self.low)


class Normal(_LocationScale):
    """1.6's normal distribution of mean `loc` and deviation `scale`."""

    def __init__(self, loc, scale):
        self.loc, self.scale = self._arguments(loc, scale)

    def sample(self, shape, seed=0):
        """`shape + batch shape` samples (`shape` for float arguments)."""
        return self._sample(
            shape, seed, self.loc + self.scale, self.loc, self.scale,
            lambda like, dims, seed: nn.gaussian_random_batch_size_like(
                like, dims, mean=0., std=1., seed=seed),
            lambda dims, seed: nn.gaussian_random(dims, mean=0., std=1., seed=seed))

    def entropy(self):
        both = self.loc + self.scale
        zeros = tensor.fill_constant_batch_size_like(both, list(both.shape), self.loc.dtype, 0.)
        return 0.5 + 0.5 * math.log(2 * math.pi) + ops.log(self.scale + zeros)

    def log_prob(self, value):
        var = self.scale * self.scale
        log_scale = ops.log(self.scale)
        return (-1. * ((value - self.loc) * (value - self.loc)) / (2. * var) - log_scale
                - math.log(math.sqrt(2. * math.pi)))

    def kl_divergence(self, other):
        assert isinstance(other, Normal), "another distribution must be Normal"
        ratio = self.scale / other.scale
        ratio = ratio * ratio
        shift = (self.loc - other.loc) / other.scale
        shift = shift * shift
        return 0.5 * (ratio + shift - 1. - ops.log(ratio))


def _stable(logits):
    """logits less their max over the last axis, their exps and the sum."""
    logits = logits - nn.reduce_max(logits, dim=-1, keep_dim=True)
    exps = ops.exp(logits)
    return logits, exps, nn.reduce_sum(exps, dim=-1, keep_dim=True)


class Categorical(Distribution):
    """1.6's categorical distribution of unnormalized `logits` (over the
    last axis)."""

    def __init__(self, logits):
        if self._validate_args(logits):
            self.logits = logits
        else:
            self.logits = self._to_variable(logits)[0]

    def kl_divergence(self, other):
        assert isinstance(other, Categorical)
        logits, exps, z = _stable(self.logits)
        other_logits, _, other_z = _stable(other.logits)
        prob = exps / z
        return nn.reduce_sum(prob * (logits - ops.log(z) - other_logits + ops.log(other_z)),
                             dim=-1, keep_dim=True)

    def entropy(self):
        logits, exps, z = _stable(self.logits)
        prob = exps / z
        return -1.0 * nn.reduce_sum(prob * (logits - ops.log(z)), dim=-1, keep_dim=True)


class MultivariateNormalDiag(Distribution):
    """1.6's multivariate normal of mean `loc` (`[k]`) and diagonal
    covariance matrix `scale` (`[k, k]`)."""

    def __init__(self, loc, scale):
        if self._validate_args(loc, scale):
            self.loc, self.scale = loc, scale
        else:
            self.loc, self.scale = self._to_variable(loc, scale)

    def _ones_and_eye(self, value):
        dims = list(value.shape)
        ones = tensor.ones(shape=dims, dtype=self.loc.dtype)
        eye = tensor.diag(tensor.ones(shape=[dims[0]], dtype=self.loc.dtype))
        return ones, eye

    def _det(self, value):
        """The determinant of a diagonal `value`: the product of every
        entry, the off-diagonal ones made 1."""
        ones, eye = self._ones_and_eye(value)
        return nn.reduce_prod(value + ones - eye)

    def _inv(self, value):
        """The inverse of a diagonal `value`: its diagonal to the power -1,
        the (zero) rest to the power 1."""
        ones, eye = self._ones_and_eye(value)
        return nn.elementwise_pow(value, (ones - 2 * eye))

    def entropy(self):
        return 0.5 * (self.scale.shape[0] * (1.0 + math.log(2 * math.pi)) +
                      ops.log(self._det(self.scale)))

    def kl_divergence(self, other):
        assert isinstance(other, MultivariateNormalDiag)
        trace = nn.reduce_sum(self._inv(other.scale) * self.scale)
        diff = other.loc - self.loc
        quadratic = nn.matmul(nn.matmul(diff, self._inv(other.scale)), diff)
        k = list(self.scale.shape)[0]
        log_ratio = ops.log(self._det(other.scale)) - ops.log(self._det(self.scale))
        return 0.5 * (trace + quadratic - k + log_ratio)
