"""The fluid2018 shim's `fluid.layers.distributions` (1.6): Uniform,
Normal, Categorical, MultivariateNormalDiag. Paddle 3.3.1's
paddle.distribution changed them (Categorical's results lost their last
axis, Uniform samples from [0, 1), arguments and shapes differ), so these
compute 1.6's formulas over the shim's 1.x layers:

- arguments: all Variables, or floats / lists / numpy arrays made float32
  arrays of one broadcast shape, assigned to tensors;
- Uniform(low, high): log_prob `log([low < v] * [v < high]) - log(high -
  low)`, entropy `log(high - low)`, samples `low + (high - low) * u` with
  1.6's `u` from [-1, 1) (uniform_random's defaults);
- Normal(loc, scale): the usual entropy, log-density and KL;
- Categorical(logits): entropy and KL over the last axis, kept as a dim
  of 1;
- MultivariateNormalDiag(loc, scale): `scale` a diagonal covariance
  matrix; its determinant is the product of its entries with the
  off-diagonal ones made 1, its inverse the diagonal's reciprocals."""

import math
import warnings

import numpy

from paddle.base.framework import Variable


def install(fluid):
    layers = fluid.layers

    def as_tensors(args):
        if any(isinstance(a, Variable) for a in args):
            if not all(isinstance(a, Variable) for a in args):
                raise ValueError('if one argument is Variable, all arguments should be Variable')
            return True, list(args)
        arrays = []
        for a in args:
            assert isinstance(a, (float, list, numpy.ndarray)), \
                "type of input args must be float, list, numpy.ndarray or Variable."
            arr = numpy.array([a], dtype='float64') if isinstance(a, float) else numpy.array(a)
            if arr.dtype != numpy.float32:
                warnings.warn("data type of argument only support float32")
                arr = arr.astype('float32')
            arrays.append(arr)
        out = []
        for arr in numpy.broadcast_arrays(*arrays):
            t = layers.create_tensor(dtype='float32')
            layers.assign(numpy.ascontiguousarray(arr), t)
            out.append(t)
        return False, out

    class Distribution:
        def sample(self):
            raise NotImplementedError

        def entropy(self):
            raise NotImplementedError

        def kl_divergence(self, other):
            raise NotImplementedError

        def log_prob(self, value):
            raise NotImplementedError

    class _TwoParameters(Distribution):
        def _set(self, a, b):
            self.all_arg_is_float = isinstance(a, float) and isinstance(b, float)
            self.batch_size_unknown, (a, b) = as_tensors([a, b])
            return a, b

        def _draw(self, shape, base, spread, shift, like_fn, plain_fn):
            batch = list(base.shape)
            if self.batch_size_unknown:
                zeros = layers.fill_constant_batch_size_like(base, batch + shape, 'float32', 0.)
                noise = like_fn(zeros, zeros.shape)
                return layers.reshape(noise * (zeros + spread) + shift, shape + batch)
            noise = plain_fn(shape + batch)
            out = noise * (layers.zeros(shape + batch, dtype='float32') + spread) + shift
            return layers.reshape(out, shape) if self.all_arg_is_float else out

    class Uniform(_TwoParameters):
        def __init__(self, low, high):
            self.low, self.high = self._set(low, high)

        def sample(self, shape, seed=0):
            return self._draw(
                shape, self.low + self.high, self.high - self.low, self.low,
                lambda like, dims: layers.uniform_random_batch_size_like(
                    like, dims, min=0., max=1., seed=seed),
                lambda dims: layers.uniform_random(dims, seed=seed))

        def log_prob(self, value):
            above = layers.cast(layers.less_than(self.low, value), dtype=value.dtype)
            below = layers.cast(layers.less_than(value, self.high), dtype=value.dtype)
            return layers.log(above * below) - layers.log(self.high - self.low)

        def entropy(self):
            return layers.log(self.high - self.low)

    class Normal(_TwoParameters):
        def __init__(self, loc, scale):
            self.loc, self.scale = self._set(loc, scale)

        def sample(self, shape, seed=0):
            return self._draw(
                shape, self.loc + self.scale, self.scale, self.loc,
                lambda like, dims: layers.gaussian_random_batch_size_like(
                    like, dims, mean=0., std=1., seed=seed),
                lambda dims: layers.gaussian_random(dims, mean=0., std=1., seed=seed))

        def entropy(self):
            base = self.loc + self.scale
            zeros = layers.fill_constant_batch_size_like(base, list(base.shape), 'float32', 0.)
            return 0.5 + 0.5 * math.log(2 * math.pi) + layers.log(self.scale + zeros)

        def log_prob(self, value):
            d = value - self.loc
            return (-1. * (d * d) / (2. * (self.scale * self.scale)) - layers.log(self.scale)
                    - math.log(math.sqrt(2. * math.pi)))

        def kl_divergence(self, other):
            assert isinstance(other, Normal), "another distribution must be Normal"
            r = self.scale / other.scale
            r = r * r
            t = (self.loc - other.loc) / other.scale
            return 0.5 * (r + t * t - 1. - layers.log(r))

    def shifted(logits):
        s = logits - layers.reduce_max(logits, dim=-1, keep_dim=True)
        e = layers.exp(s)
        return s, e, layers.reduce_sum(e, dim=-1, keep_dim=True)

    class Categorical(Distribution):
        def __init__(self, logits):
            self.logits = as_tensors([logits])[1][0]

        def kl_divergence(self, other):
            assert isinstance(other, Categorical)
            s, e, z = shifted(self.logits)
            o, _, oz = shifted(other.logits)
            return layers.reduce_sum((e / z) * (s - layers.log(z) - o + layers.log(oz)),
                                     dim=-1, keep_dim=True)

        def entropy(self):
            s, e, z = shifted(self.logits)
            return -1.0 * layers.reduce_sum((e / z) * (s - layers.log(z)), dim=-1,
                                            keep_dim=True)

    class MultivariateNormalDiag(Distribution):
        def __init__(self, loc, scale):
            self.loc, self.scale = as_tensors([loc, scale])[1]

        def _ones_eye(self, m):
            k = list(m.shape)
            return (layers.ones(shape=k, dtype='float32'),
                    layers.diag(layers.ones(shape=[k[0]], dtype='float32')))

        def _det(self, m):
            ones, eye = self._ones_eye(m)
            return layers.reduce_prod(m + ones - eye)

        def _inv(self, m):
            ones, eye = self._ones_eye(m)
            return layers.elementwise_pow(m, ones - 2 * eye)

        def entropy(self):
            return 0.5 * (self.scale.shape[0] * (1.0 + math.log(2 * math.pi)) +
                          layers.log(self._det(self.scale)))

        def kl_divergence(self, other):
            assert isinstance(other, MultivariateNormalDiag)
            inv = self._inv(other.scale)
            d = other.loc - self.loc
            quad = layers.matmul(layers.matmul(d, inv), d)
            k = list(self.scale.shape)[0]
            logdet = layers.log(self._det(other.scale)) - layers.log(self._det(self.scale))
            return 0.5 * (layers.reduce_sum(inv * self.scale) + quad - k + logdet)

    names = dict(Uniform=Uniform, Normal=Normal, Categorical=Categorical,
                 MultivariateNormalDiag=MultivariateNormalDiag)
    for cls in names.values():
        cls.__module__ = "paddle.fluid.layers.distributions"
    import sys
    import types
    module = types.ModuleType("paddle.fluid.layers.distributions")
    module.__dict__.update(names, Distribution=Distribution, __all__=list(names))
    sys.modules[module.__name__] = module
    layers.distributions = module
    layers.__dict__.update(names)
