# Indexing and item assignment: ints, slices, None, Ellipsis, bool and int
# arrays, lists, numpy integers; scalars vs 0-d arrays; writes through
# aliases.
import numpy as np

a = np.arange(24).reshape(2, 3, 4)
print(a[1], a[-1, -1], repr(a[1, 2, 3]), a[0, :, 1], a[:, 1:3, ::2], a[..., 1], a[1, ...])
print(a[None].shape, a[:, None, :, None].shape, a[..., None].shape, repr(a[1, 2][...]), repr(a[0, 0, 0, ...]))
print(a[::-1, ::-2, 3], a[:, -2:], a[5:], a[:, 10:].shape, a[np.int64(1), np.int32(0)])
print(a[[0, 1]].shape, a[[1, 0], [2, 1]], a[:, [0, 2], [1, 3]], a[[[0], [1]], [1, 2]].shape)
print(a[a % 5 == 0], a[np.array([True, False])].shape, a[:, np.array([True, False, True])].shape)
print(a[1, [0, 2], 1:3], a[[0, 1], :, [0, 3]])
print(a[np.array([1, 0]), np.array(1)], a[(0, 1)], a[[0, 1],].shape)
x = np.linspace(0, 1, 5).astype(np.float32)
print(repr(x[2]), type(x[2]).__name__, repr(x[2:3]), x[-1], x[np.argmax(x)])
b = np.zeros((3, 4), dtype=np.float32)
alias = b
b[0] = 1
b[1, 1:3] = [2, 3]
b[:, 3] = np.arange(3)
b[b == 0] = -1
b[2] += 10
b[..., 0] *= 2
b[[0, 2], [1, 1]] = 7.9
print(alias)
c = np.arange(10)
c[::3] = 0
c[c > 5] = np.array([60, 70, 80, 90])[:int((c > 5).sum())]
c[1] = 3.99
c[-1] = True
print(c)
try:
    c[0] = np.nan
except ValueError as e:
    print("ValueError:", e)
i32 = np.zeros(2, dtype=np.int32)
try:
    i32[0] = 3000000000
except OverflowError as e:
    print("OverflowError:", e)
for bad in [lambda: a[2], lambda: a[0, 5], lambda: a[0, 0, 0, 0], lambda: a[1.5], lambda: a[[0, 5]],
            lambda: a[np.array([True, False, True])], lambda: a[0, ..., ...], lambda: a[[0, 1], [0, 1, 2]]]:
    try:
        bad()
    except IndexError as e:
        print("IndexError:", e)
try:
    b[0] = [1, 2]
except ValueError as e:
    print("ValueError:", e)
print(len(a), len(a[0]), [r.shape for r in a], list(np.arange(3)), [repr(v) for v in np.array([1.5, 2.5])])
print(5 in np.arange(10), 11 in np.arange(10), a.flat[5], list(np.arange(4).reshape(2, 2).flat))
s = np.float32(2.5)
print(repr(s[()]), repr(s[...]), s.shape, s.ndim, s.size, s.dtype, np.int64(3).itemsize)
e = np.array(5.0)
e[...] = 7
e[()] = 8
print(repr(e), repr(e[()]), repr(e[...]))
print(np.arange(5)[np.arange(5) > 10], np.arange(6).reshape(2, 3)[:, []].shape, np.arange(4)[[]])
m = np.arange(12).reshape(3, 4)
print(m[1:, 1:][::-1], m[m[:, 0] > 2], m[:, m[0] > 1], m.take([0, 2], axis=1), np.take(m, [1, 5]))
for k in [np.float64(1), np.float32(1), np.array(1.0), 1.0]:
    try:
        a[k]
    except IndexError as e:
        print("IndexError:", e)
x = np.arange(3)
print(x[True], x[False], x[np.True_].shape, np.float64(2.0)[np.True_], x[True, 1:], x[..., False].shape)
x[True] = 5
x[np.False_] = 7
print(x)
# An empty array's column or row selection is empty too (a batch with no
# samples left: `batch[:, 1]`), with the shape numpy gives it.
empty = np.zeros((0, 3), dtype="float32")
print(empty[:, 1], empty[:, 1].shape, empty[:, 1:].shape, empty[1:, 2:].shape, np.zeros((2, 0))[1], np.zeros((0, 3), dtype=str)[:, 1].shape)
