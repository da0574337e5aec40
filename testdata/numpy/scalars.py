# numpy scalars: construction, types, conversions, hashing, formatting,
# rounding, methods; np.float64 is a Python float.
import math
import numpy as np

f = np.float32(2.567)
d = np.float64(0.1)
i = np.int64(4)
j = np.int32(-7)
t = np.bool_(True)
for s in (f, d, i, j, t):
    print(type(s).__name__, repr(s), str(s), s.dtype, s.shape, s.ndim, s.size, s.itemsize, s.nbytes, repr(s.item()), repr(s.tolist()))
print(isinstance(d, float), isinstance(f, float), isinstance(i, int), isinstance(i, np.integer), isinstance(f, np.floating),
      isinstance(t, np.generic), isinstance(d, np.number), issubclass(np.float64, float), np.float64.__mro__[1:3])
print(float(f), int(f), int(j), float(i), bool(t), bool(np.float32(0)), math.floor(d), math.sqrt(i))
print(hash(d) == hash(0.1), hash(i) == hash(4), hash(np.float32(1.5)) == hash(1.5), {np.int64(1): "a"}[1], {1: "b"}[np.int64(1)])
print(round(f), type(round(f)).__name__, repr(round(f, 2)), repr(round(d, 1)), round(np.float64(2.5)), repr(round(np.int64(1234), -2)))
print(repr(np.float32()), repr(np.int64()), repr(np.bool_()), repr(np.float32("1.5")), repr(np.int32(3.9)), repr(np.int64(np.float32(-2.5))))
print(repr(np.float32([1, 2])), repr(np.int64((3,))), repr(np.float64(np.array(2.5))), repr(np.float32(np.float64(0.1))))
print(list(range(np.int64(3))), [10, 20, 30][np.int64(1)], "ab" * np.int64(2), np.arange(5)[np.int32(-1)], np.arange(10)[np.int64(2):np.int64(5)])
print(max(np.float32(1), 2), min(np.int64(3), 2.5), sorted([np.float32(3), np.float32(1), 2]), sum([np.float32(0.5), np.float32(0.25)]))
print(repr(sum([np.float32(0.5), np.float32(0.25)])), repr(np.float32(0.5) + True), repr(t + 1), repr(t * 2.5))
print(f.astype(np.float64), repr(f.astype(np.int32)), repr(i.astype(bool)), repr(d.round(0)), f.reshape(1), repr(f.sum()), repr(f.max()))
print(d.is_integer(), np.float64(2.0).is_integer(), d.hex(), d.as_integer_ratio(), i.bit_length() if hasattr(i, "bit_length") else "-")
print(f == 2.567, d == 0.1, i == 4.0, t == 1, f < 3, j >= -7, j != j, repr(d < np.float32(0.2)))
print("%.3f %s %r %5.1f %e %g %d %i" % (f, f, d, i, d, f, i, j))
print("{} {:.2f} {!r} {:>8} {:08.3f}".format(f, d, i, j, f))
print(repr(abs(j)), repr(-i), repr(+f), repr(~i), repr(~t), repr(j // 2), repr(j % 3), repr(i / 3))
print(np.float32(1) / np.float32(3), np.float64(1) / 3, np.float32(16777217), np.int32(2**31 - 1) + np.int32(1) if False else "wrap")
print(repr(np.float32(1e39)), repr(np.float32(-1e39)), repr(np.float32(1e-46)), repr(np.float64(1) / 0), repr(np.int64(1) // 0))
x = np.array([1.5, 2.5, 3.5], dtype=np.float32)
print([repr(v) for v in x], repr(x[0] + x[1]), repr(x[0] * 2), repr(x.sum() / len(x)), repr(np.mean(x) - 0.1))
print(repr(np.sqrt(np.float32(2))), repr(np.exp(1)), repr(np.log(np.int64(10))), repr(np.abs(-2.5)), repr(np.floor(np.float32(-0.5))))
print(np.dtype('float32').type(3), np.float32 in (np.float32, np.float64), np.dtype(np.float32) == 'float32', np.float32 == np.dtype('float32'))
