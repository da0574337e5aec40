# Shape functions and joins: reshape, transpose, squeeze, expand_dims,
# concatenate, stack, hstack, vstack, split, tile, repeat, where, clip,
# round, dot, matmul, isclose, allclose, array_equal, nonzero, and more.
import numpy as np

a = np.arange(24, dtype=np.float32).reshape(2, 3, 4)
print(a.reshape(6, 4).shape, a.reshape((4, -1)).shape, a.reshape([-1]).shape, np.reshape(a, (3, 8))[2], a.ravel()[:5], a.flatten().shape)
print(a.transpose().shape, a.transpose(1, 0, 2).shape, a.transpose((2, 0, 1))[1], a.T.shape, np.transpose(a, (0, 2, 1)).shape, a.swapaxes(0, 2).shape)
print(np.moveaxis(a, 0, -1).shape, np.squeeze(np.ones((1, 3, 1))).shape, np.ones((1, 3, 1)).squeeze(axis=0).shape, np.squeeze(np.ones((1, 2, 1)), axis=(0, 2)).shape)
print(np.expand_dims(np.arange(3), 0).shape, np.expand_dims(np.arange(3), -1).shape, np.expand_dims(np.ones((2, 3)), (0, 3)).shape)
b = np.ones((2, 3), dtype=np.int32)
c = np.zeros((1, 3))
print(np.concatenate([b, c]), np.concatenate((b, b), axis=1).shape, np.concatenate([b, b], axis=None).shape, np.concatenate([[1, 2], [3]]))
print(np.stack([b, b]).shape, np.stack((np.arange(3), np.arange(3)), axis=1), np.stack([b, b], axis=-1).shape)
print(np.hstack([np.arange(2), np.arange(3)]), np.hstack([b, b]).shape, np.vstack([np.arange(3), np.arange(3)]), np.vstack([b, c]).dtype)
print(np.column_stack([np.arange(2), np.arange(2)]), np.split(np.arange(6), 3), np.split(np.arange(6), [1, 4]), np.array_split(np.arange(5), 2))
print(np.tile(np.arange(3), 2), np.tile(np.arange(2), (2, 2)), np.repeat(np.arange(3), 2), np.repeat(np.arange(4).reshape(2, 2), [1, 2], axis=0))
print(np.flip(np.arange(4)), np.fliplr(np.eye(2)), np.roll(np.arange(5), 2), np.roll(np.arange(6).reshape(2, 3), -1, axis=1))
print(np.pad(np.arange(3), 1), np.pad(np.ones((2, 2)), ((1, 0), (0, 2))), np.append([1, 2], [3, 4]), np.delete(np.arange(5), [0, 2]), np.insert(np.arange(3), 1, 9))
# 1.x's conv2d op tests pad NCHW images with one width per axis, `((0,), (0,), (p,), (p,))`.
print(np.pad(np.arange(6.0).reshape(1, 2, 3), ((0,), (1,), (2,)), mode='constant').tolist())
x = np.array([-2.5, -0.5, 0.5, 1.5, 2.5, 3.7], dtype=np.float32)
print(np.where(x > 0, x, 0), np.where(x > 0), np.where([True, False], 1, 2.5), np.where(x > 1, 1, -1).dtype, np.nonzero([0, 3, 0, 4]))
print(np.clip(x, -1, 1), np.clip(np.arange(6), 2, 4), x.clip(0), np.clip(x, None, 2), np.clip(np.arange(3), 0.5, 1.5))
print(np.round(x), np.around(x, 1), x.round(), np.round(2.5), np.round(-0.5), np.round(1234, -2), np.round(np.array([1.25, 1.35]), 1))
print(np.floor(x), np.ceil(x), np.trunc(x), np.rint(x), np.sign(x), np.sign(np.array([-3, 0, 2])), np.abs(np.array([-3, 2])))
m = np.arange(6, dtype=np.float64).reshape(2, 3)
v = np.array([1.0, 2.0, 3.0])
print(np.dot(m, v), np.dot(v, v), m.dot(m.T), np.matmul(m, m.T), m @ v, v @ m.T, np.dot(2, m), np.outer([1, 2], [3, 4, 5]))
print(np.matmul(np.ones((2, 2, 3)), np.ones((3, 2))).shape, (np.arange(12).reshape(2, 2, 3) @ np.arange(6).reshape(2, 3, 1)).ravel())
print(np.isclose(x, [-2.5, -0.5, 0.5000001, 1.6, 2.5, 3.7]), np.isclose(1.0, 1.0 + 1e-9), np.allclose(m, m + 1e-9), np.allclose([1, np.nan], [1, np.nan], equal_nan=True))
print(np.array_equal(m, m.copy()), np.array_equal([1, 2], [1, 2, 3]), np.array_equal(np.array([np.nan]), np.array([np.nan]), equal_nan=True))
print(np.isnan([1.0, np.nan]), np.isinf([np.inf, -np.inf, 0]), np.isfinite(np.array([1, np.nan, np.inf])), np.isnan(np.arange(3)))
print(np.exp(np.array([0.0, 1.0, -1.0])), np.log(np.array([1.0, 10.0])), np.sqrt(np.arange(5)), np.square(np.arange(3)), np.power(np.arange(4), 2))
print(np.maximum(np.arange(4), 1.5), np.logical_and([True, False], [True, True]), np.logical_not(np.array([0, 1])), np.logical_or(0, 1))
print(np.shape(m), np.ndim(5), np.size(m), np.size(m, 1), np.isscalar(3.0), np.isscalar(np.float32(1)), np.isscalar([1]), len(m))
print(np.broadcast_to(np.arange(3), (2, 3)), np.atleast_1d(5), np.atleast_2d(np.arange(2)).shape, np.argwhere(m > 2), np.flatnonzero(m > 3))
print(np.tensordot(m, m.T, axes=1), np.cross([1, 0, 0], [0, 1, 0]), np.trace(np.eye(3)), np.argsort(-v), np.searchsorted([1, 3, 5], [2, 5]))
print(np.sum(m, 0), np.mean(m, 1), m.max(0), m.mean(axis=-1, keepdims=True), m.std(axis=0), m.var(), m.prod(axis=1), m.cumsum(axis=0))
print(np.select([m < 2, m > 4], [m, -m], 0), np.count_nonzero(m), np.linalg.norm(v), np.linalg.norm(m, axis=1), np.linalg.norm(m))
m.shape = (3, 2)
print(m, m.T.shape)
m.fill(7)
s = np.array([3, 1, 2])
s.sort()
print(m, s, sorted(np.array([2.5, 1.5])), np.ravel([[1, 2], [3, 4]]))
for bad in [lambda: np.concatenate([np.ones(2), np.ones((2, 2))]), lambda: np.stack([np.ones(2), np.ones(3)]), lambda: np.dot(np.ones(2), np.ones(3)),
            lambda: np.ones((2, 3)) + np.ones((3, 2)), lambda: np.matmul(np.ones((2, 3)), np.ones((2, 3))), lambda: np.squeeze(np.ones((2, 1)), axis=0),
            lambda: np.transpose(np.ones((2, 3)), (0, 0)), lambda: np.expand_dims(np.ones(2), 3)]:
    try:
        bad()
    except ValueError as e:
        print(type(e).__name__, e)
