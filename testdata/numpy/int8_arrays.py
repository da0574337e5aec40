# int8 arrays, as 1.x's quantization tests and test_tensor.py made them
# (np.random.randint(-127, 128, size, dtype=np.int8)): printing, NEP 50
# promotion (a Python int stays int8 and must fit it, a float makes
# float64, wider arrays win, float32 keeps float32), wrapping arithmetic,
# casts, bit operators, bytes in and out. fluidc has no int16, so int8
# with uint8 (numpy's int16) and sums (int64 in numpy) are shown as values.
import numpy as np

a = np.array([-128, -1, 0, 5, 127], dtype=np.int8)
print(a, a.dtype, repr(a), a.itemsize, a.dtype.kind, a.dtype.str)
print(a + 1, (a + 1).dtype, a - 2, a * 2, -a, abs(a))
print(a + np.int32(3), (a + np.int32(3)).dtype, (a + np.int64(1)).dtype, a / 2, (a / 2).dtype)
print((a + np.float32(0.5)).dtype, (a + 0.5).dtype, a.astype('float32') / 127.0)
print(int(a.sum()), a.mean(), a.max(), a.min(), a[3], type(a[3]).__name__, repr(a[0]))
r = np.random.RandomState(3).randint(-127, high=128, size=[3, 4], dtype=np.int8)
print(r, r.dtype)
print(np.frombuffer(r.tobytes(), dtype=np.int8).reshape(3, 4) == r)
print(np.zeros((2, 2), dtype='int8'), np.arange(-2, 3, dtype=np.int8), np.ones(2, np.int8))
print(a > 0, a.astype(np.int64) * 300, np.array([3.7, -1.9, 300.0]).astype(np.int8))
print(a >> 1, a << 1, a & 0x0F, a | 1, a ^ -1, ~a)
print(a.tolist(), np.int8(-5), np.sort(a[::-1]), np.argsort(np.array([3, -2, 1], dtype=np.int8)))
print(np.cumsum(np.array([100, 100, -50], dtype=np.int8)), np.sign(a), np.dtype('i1'), np.dtype('b'))
print(np.array([1, 2], dtype=np.int8) == np.array([1, 3]), np.array([[1, 2]], dtype=np.int8).T)
try:
    a + 300
except OverflowError as e:
    print('OverflowError', e)
