# numpy 2 promotion (NEP 50): arrays and numpy scalars are strong, Python
# numbers weak; division, floor division, powers, comparisons, in-place.
import numpy as np

f32 = np.array([1.5, -2.25, 3.0], dtype=np.float32)
f64 = np.array([1.5, -2.25, 3.0])
i32 = np.array([7, -3, 4], dtype=np.int32)
i64 = np.array([7, -3, 4])
b = np.array([True, False, True])
arrays = [("f32", f32), ("f64", f64), ("i32", i32), ("i64", i64), ("b", b)]
for name, x in arrays:
    for other in (1, 2.5, True, np.float32(2), np.float64(2), np.int32(2), np.int64(2), np.array(2.0), [1, 2, 3]):
        r = x * other
        print(name, type(other).__name__, r.dtype, r)
for name, x in arrays:
    for name2, y in arrays:
        print(name, name2, (x + y).dtype, (x / y).dtype, (x == y).dtype)
print(i32 // 2, i32 % 3, -i32 // 2, i64 ** 2, i32 / 2, f32 // 1.5, f32 % 1.25, f64 ** 0.5)
print(np.int64(7) // 2, np.int64(-7) % 3, np.float32(7) / 2, np.int32(5) / 2, 7 // np.int64(2))
print(divmod(np.float32(7), 2), divmod(i64, 3), divmod(7.5, np.float64(2)))
print(f32 > 1, i32 == 4, b & np.array([True, True, False]), b | False, ~b, i32 & 6, i64 ^ 1)
print(i32 < 3000000000, i32 > -3000000000)
try:
    i32 + 3000000000
except OverflowError as e:
    print("OverflowError:", e)
try:
    b - b
except TypeError as e:
    print("TypeError:", e)
try:
    i64 ** -1
except ValueError as e:
    print("ValueError:", e)
print(repr(np.float32(0.1) - 0.5), repr(0.5 - np.float32(0.1)), repr(np.float32(0.1) * 2), repr(np.float64(1) / 3))
print(repr(np.float32(2) + np.float64(1)), repr(np.int32(2) + np.int64(1)), repr(np.int32(2) + 1.5), repr(np.int32(2) * np.float32(1.5)))
print(repr(1.0 + np.float64(2)), repr(2 * np.int64(3)), repr(-np.float32(2.5)), repr(abs(np.int32(-4))))
print(repr(np.float32(3) ** 2), repr(np.float64(2) ** 0.5), repr(np.int64(2) ** 10), repr(2 ** np.int64(3)))
print(repr(np.True_ + np.True_), repr(np.True_ & False), repr(np.int64(5) > 3), repr(np.float32(1.5) == 1.5))
x = np.arange(6, dtype=np.float32).reshape(2, 3)
y = x
x += 1
x *= np.array([1, 2, 3])
x -= 0.5
print(y, y.dtype)
z = np.arange(4)
z += 2
z //= 2
z **= 2
print(z, z.dtype)
try:
    z += 1.5
except TypeError as e:
    print(type(e).__name__, e)
try:
    z /= 2
except TypeError as e:
    print(type(e).__name__, e)
try:
    z += np.ones((2, 4), dtype=np.int64)
except ValueError as e:
    print("ValueError:", e)
m = np.array([True, False])
m |= np.array([False, True])
m &= True
print(m)
print(np.add(1, 2), repr(np.add(1, 2)), repr(np.multiply(2.5, 2)), repr(np.subtract(np.float32(1), 1)))
print(np.maximum(f32, 0), np.minimum(i32, 0.5), np.maximum(np.nan, 1.0), np.minimum([1, 5], [3, 2]))
print(np.power(2, i32[1:]) if False else np.power(2.0, i32), np.true_divide(i64, 4), np.floor_divide(f64, 2))
print(np.result_type(np.float32, np.int64), np.result_type(i32, 1.5), np.promote_types('int32', 'float32'))
s = np.array([1.5, 2])
print(repr(s == 'a'), repr(s != 'a'), repr(np.float32(1) == 'a'), s == None, np.float64(1) == None, [1, 2] * np.int64(2), np.int32(2) * "ab")
for f in [lambda: s < 'a', lambda: s * 'ab', lambda: np.float32(1) + 'a', lambda: 'a' + s, lambda: np.float32(2) * [1]]:
    try:
        print(f())
    except TypeError as e:
        print(type(e).__name__, e)
