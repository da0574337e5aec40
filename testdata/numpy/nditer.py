# np.nditer as 2018 scripts use it: elements in C order as 0-d arrays, the
# multi_index loop of numerical gradient checks (finished, iternext, it[0]),
# readwrite operands written through `x[...] = v` and `x += v`, indices,
# order='F', broadcasting operands, external_loop chunks, the iterator's
# errors; np.ndenumerate and np.ndindex.
import numpy as np


def attempt(f):
    try:
        print(repr(f()))
    except Exception as e:
        print(type(e).__name__, e)


a = np.arange(6.0).reshape(2, 3)
for x in np.nditer(a):
    print(x, repr(x), float(x), int(x), type(x).__name__, x.shape, x.dtype, end=" | ")
print()
x = next(np.nditer(np.array([2.5, 1], dtype=np.float32)))
print(x, repr(x), x + 1, repr(x * 2), repr(x.item()), str(x), "%s %.2f %r" % (x, x, x), f"{x}", f"{x:.3f}", type(x))
print([int(v) for v in np.nditer(np.arange(4).reshape(2, 2))], [float(v) for v in np.nditer(a, order="F")])
print(list(np.nditer(np.array(5))), list(np.nditer(3.5)), list(np.nditer([1, 2])), list(np.nditer(np.float32(2))))

# The loop of eval_numerical_gradient.
it = np.nditer(a, flags=["multi_index"])
print(it.finished, it.multi_index, repr(it[0]), repr(it.value), it.iterindex, it.itersize, it.ndim, it.nop, it.shape, len(it))
print(it.iternext(), it.multi_index, next(it), it.multi_index, next(it), it.multi_index)
while not it.finished:
    print(it.multi_index, it[0], end="; ")
    it.iternext()
print()
print(it.iternext(), it.finished)
for f in [lambda: it.multi_index, lambda: it[0], lambda: it.value, lambda: next(it), lambda: it.index, lambda: it.iterindex]:
    attempt(f)
it.reset()
print(it.finished, it.multi_index)
it.multi_index = (1, 1)
print(it[0], it.iterindex)
it.iterindex = 2
print(it.multi_index)


def f(w):
    return (w ** 2).sum() + w[0, 1] * w[1, 0]


w = np.array([[1.0, -2.0], [3.0, 0.5]])
grad = np.zeros_like(w)
h = 1e-5
it = np.nditer(w, flags=["multi_index"], op_flags=["readwrite"])
while not it.finished:
    ix = it.multi_index
    old = w[ix]
    w[ix] = old + h
    fp = f(w)
    w[ix] = old - h
    fm = f(w)
    w[ix] = old
    grad[ix] = (fp - fm) / (2 * h)
    it.iternext()
print(np.round(grad, 4), w)

# Writing through elements.
b = np.arange(4.0).reshape(2, 2)
for v in np.nditer(b, op_flags=["readwrite"]):
    v[...] = 2 * v
print(b)
for v in np.nditer(b, op_flags=["readwrite"]):
    v += 1
print(b)
with np.nditer(b, op_flags=["readwrite"]) as it:
    for v in it:
        v[...] = v * v
print(b)
g = np.zeros(4, dtype=np.float32)
for v in np.nditer(g, op_flags=["readwrite"]):
    np.add(v, 1.5, out=v)
print(repr(g))
c = np.arange(3.0)
for p, q in np.nditer([c, np.arange(3)], op_flags=[["readwrite"], ["readonly"]]):
    p[...] = q * 10
print(c)
it = np.nditer(c, op_flags=["writeonly"])
for v in it:
    v[...] = 1
print(c, it.finished, it.iternext())
x = next(np.nditer(a))
attempt(lambda: x.__setitem__(Ellipsis, 5))
try:
    x += 5
except ValueError as e:
    print("ValueError", e)
print(a)

# Indices, broadcasting, chunks.
it = np.nditer(b, flags=["c_index"])
print([(it.index, float(v)) for v in it])
it = np.nditer(b, flags=["f_index"])
print([(it.index, float(v)) for v in it])
it = np.nditer(a, flags=["multi_index", "f_index"], order="F")
print([(it.multi_index, it.index, it.iterindex) for _ in it])
for p, q in np.nditer([np.arange(3), np.arange(2).reshape(2, 1)]):
    print(p, q, end="; ")
print()
it = np.nditer([a, np.arange(3)], flags=["multi_index"])
print(it.value, it[1], it.shape, it.itersize, len(it), it.dtypes, it[0:2])
attempt(lambda: it[2])
for v in np.nditer(a, flags=["external_loop"]):
    print(repr(v))
for v in np.nditer(a, flags=["buffered", "external_loop"], buffersize=4):
    print(v)
d = np.arange(6).reshape(2, 3)
for v in np.nditer(d, flags=["external_loop"], op_flags=["readwrite"]):
    v *= 2
for v in np.nditer(d, flags=["buffered", "external_loop"], buffersize=4, op_flags=["readwrite"]):
    v[...] = v + 1
print(d)
print(list(np.nditer(np.zeros((0, 3)), flags=["zerosize_ok"])), np.nditer(np.zeros((0, 3)), flags=["zerosize_ok", "multi_index"]).finished)
print([repr(v) for v in np.nditer(a, op_dtypes=["float64"])][:2], np.nditer(a, flags=None, op_flags=None, op_dtypes=None, order="K", casting="safe", op_axes=None, itershape=None, buffersize=0).itersize)

# Errors.
attempt(lambda: list(np.nditer(np.zeros((0, 3)))))
attempt(lambda: np.nditer(a, flags=["bogus"]))
attempt(lambda: np.nditer(a, op_flags=["bogus"]))
attempt(lambda: np.nditer(a, order="Z"))
attempt(lambda: np.nditer(a, casting="bogus"))
attempt(lambda: np.nditer(a, op_flags=["no_broadcast"]))
attempt(lambda: np.nditer(a, op_flags=[]))
attempt(lambda: np.nditer(a, op_flags=["readonly", "readwrite"]))
attempt(lambda: np.nditer(a, op_flags="readwrite"))
attempt(lambda: np.nditer(a, flags="multi_index"))
attempt(lambda: np.nditer(a, flags=["c_index", "f_index"]))
attempt(lambda: np.nditer(a, flags=["external_loop", "multi_index"]))
attempt(lambda: np.nditer([a, np.arange(4)]))
attempt(lambda: np.nditer([]))
attempt(lambda: list(np.nditer([1, 2], op_flags=["readwrite"])))
attempt(lambda: np.nditer(a).multi_index)
attempt(lambda: np.nditer(a).index)
print(type(np.nditer(a)).__name__, np.nditer, np.ndenumerate, np.ndindex)

print(list(np.ndenumerate(np.arange(4).reshape(2, 2))), list(np.ndenumerate([[1.5], [2]])))
print(list(np.ndindex(2, 2)), list(np.ndindex((2, 1))), list(np.ndindex()), list(np.ndindex(0, 3)))
from numpy import *  # noqa: E402,F403

print(nditer is np.nditer, ndindex is np.ndindex)  # noqa: F405
