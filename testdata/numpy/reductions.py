# Reductions: axis (int, negative, tuple), keepdims, dtype, ddof; integer
# and bool inputs; float32 sums bit for bit; arg reductions; NaN.
import numpy as np

r = np.random.RandomState(7)
x = r.rand(4, 5, 6).astype(np.float32)
d = r.randn(300)
i = np.arange(24, dtype=np.int32).reshape(4, 6)
b = i % 3 == 0
for name in ["sum", "mean", "max", "min", "prod", "std", "var"]:
    f = getattr(np, name)
    print(name, repr(f(x)), f(x, axis=0)[0, :3], f(x, axis=-1)[1], f(x, axis=(0, 2)), f(x, axis=(2, 0), keepdims=True).shape)
    print(name, repr(f(i)), f(i, axis=1), f(b, axis=0) if name not in ("std", "var", "mean", "prod") else "", repr(f(d)))
print(repr(x.sum()), repr(x.mean(dtype=np.float64)), repr(i.sum(dtype=np.float32)), repr(d.std(ddof=1)), repr(np.var(i, ddof=2)))
print(x.argmax(), x.argmin(axis=1)[0], np.argmax(i, axis=0), np.argmin(d), i.argmax(axis=-1, keepdims=True).T)
print(b.any(), b.all(), b.any(axis=0), np.all(b, axis=1), np.any([0, 0, 1]), repr(np.all([])), repr(np.any(np.zeros((2, 0)))))
print(np.sum([1, 2, 3]), repr(np.sum([1.5, 2])), repr(np.mean([1, 2])), repr(np.prod([2, 3, 4])), repr(np.sum(True)))
print(np.max(np.array([1.0, np.nan, 3.0])), np.argmax(np.array([1.0, np.nan, 3.0])), np.nanmax(np.array([1.0, np.nan, 3.0])))
print(np.sum(np.zeros((3, 0)), axis=1), np.mean(np.arange(5)), np.std([1, 2, 3, 4]), np.amax(i, axis=1), np.amin(i))
print(i.sum(axis=0, keepdims=True), i.cumsum(), np.cumsum(i, axis=1), np.cumprod([1, 2, 3, 4]), np.cumsum(x[0, 0]))
print(np.sum(x, axis=1, keepdims=True).shape, np.mean(x, axis=(0, 1, 2)), np.sum(i, axis=()), np.ptp(i))
print(np.add.reduce([1, 2, 3]), np.multiply.reduce((2, 3, 4)), np.maximum.reduce(i, axis=1), np.count_nonzero(b))
print(np.sort(d[:5]), np.argsort(np.array([3, 1, 2])), np.sort(i[::-1], axis=0)[:, 0], np.unique([3, 1, 3, 2, 1]))
print(np.unique(np.array([1.5, 0.5, 1.5]), return_counts=True), np.unique([2, 1, 2], return_index=True, return_inverse=True))
print(np.median([3, 1, 2, 5]), np.median(np.arange(7.0)), np.average([1, 2, 3], weights=[3, 1, 0]), np.diff([1, 4, 9, 16]))
for bad in [lambda: np.max(np.zeros(0)), lambda: np.argmax(np.zeros((2, 0)), axis=1), lambda: i.sum(axis=2),
            lambda: i.sum(axis=(0, 0)), lambda: np.mean(i, axis=-3)]:
    try:
        bad()
    except (ValueError, IndexError) as e:
        print(type(e).__name__, e)
# Axes of length 1 and several axes at once, as numpy's iterator orders the additions.
a = np.random.RandomState(0).rand(7, 1, 1, 3).astype(np.float32)
for f in (np.sum, np.mean, np.var, np.std, np.max, np.prod):
    print(f.__name__, f(a, axis=(1, 2)).shape, f(a, axis=(1, 2))[0], f(a, axis=(0, 2, 3)), f(a, axis=(0, 1)), f(a, axis=()).shape, f(a, axis=(1,), keepdims=True).shape)
b = np.random.RandomState(1).rand(3, 4, 1, 5, 2)
for f in (np.sum, np.mean, np.var):
    print(f(b, axis=(0, 3)), f(b, axis=(1, 2, 4)), f(b, axis=(0, 2)).shape, f(b.astype(np.float32), axis=(0, 1, 3)))
print(np.var(a, axis=(1, 2), ddof=1)[0], np.var(a, axis=()).max())
