# Integer bit operators on arrays, as 1.x's unittests used them
# (test_hsigmoid_op.py's CodeTable: (c >> (bit + 1)) - 1 and c & (1 << bit)):
# >>, <<, &, |, ^, ~ with Python ints, arrays and numpy scalars,
# broadcasting, and numpy's dtype rules.
import numpy as np

c = np.array([3, 6, 13])
print(c >> 2, (c >> 1) << 2, c & 4 >> 2, c | 3, c ^ 5, ~c)
print((c >> 1).dtype, (c << 3).dtype, (c & 1).dtype)
v = np.array([5, 6])[0]
print(v >> 1, v & 1, v << 2, v | 8, v ^ 3, type(v >> 1).__name__, 1 << v, 64 >> v)
i32 = np.array([[1, 2], [-8, 1024]], dtype=np.int32)
print(i32 >> np.array([1, 2]), (i32 << 1).dtype, i32 >> 40, i32 << 33, np.int32(-1) >> 31)
print(i32 >> np.array([1, 2], dtype=np.int64), (i32 >> np.array([1, 2], dtype=np.int64)).dtype)
u8 = np.array([1, 128, 255], dtype=np.uint8)
print(u8 >> 1, u8 << 1, (u8 << 1).dtype, u8 & 0x0F, u8 | 2, u8 ^ 255, ~u8, (u8 & 3).dtype)
print(np.left_shift(3, [1, 2, 3]), np.right_shift([8, 16], 2), np.bitwise_left_shift(1, 4), np.bitwise_right_shift(-9, 1))
print(np.array([-1, -64]) >> 70, np.array([1, 3]) << 64, np.array([-5]) >> 1)
b = np.array([True, False, True])
print(b << 1, (b << 1).dtype, b & np.array([True, True, False]), b ^ True)
a = np.arange(6).reshape(2, 3)
a <<= 2
print(a)
a >>= np.array([1, 2, 3])
print(a)
a &= 3
a |= 8
a ^= 1
print(a, a.dtype)
table = np.array([5, 9, 12])
bits = [int((table[i] >> (b + 1)) - 1) for i in range(3) for b in range(2)]
print(bits, [bool(table[i] & (1 << 2)) for i in range(3)])
for bad in (lambda: np.array([1.5]) >> 1, lambda: np.array([1]) << 1.0):
    try:
        bad()
    except TypeError as e:
        print("TypeError", e)
