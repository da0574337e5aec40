# uint8 arrays, as images give them (np.array(img), numpy-1 pickles of
# pictures): printing, NEP 50 promotion (a Python int stays uint8 and
# must fit it, a float makes float64, int32 arrays win), wrapping
# arithmetic, casts from floats, bytes in and out, and scaling to floats
# the way readers did (`img.astype('float32') / 255.0`). fluidc has no
# uint64, so sums of uint8 arrays are not shown with their dtype.
import numpy as np

a = np.array([1, 200, 255], dtype=np.uint8)
print(a, a.dtype, repr(a))
print(a + 1, (a + 1).dtype, a - 2)
print(a + np.int32(3), (a * 2).dtype, a / 2, (a / 2).dtype)
print(a.astype('float32') / 255.0)
print(int(a.sum()), a.mean(), a.max(), a[1], type(a[1]), repr(a[1]))
b = np.random.RandomState(7).randint(0, 256, size=(2, 3)).astype('uint8')
print(b, b.dtype)
print(np.frombuffer(b.tobytes(), dtype=np.uint8).reshape(2, 3) == b)
print(np.zeros((2, 2), dtype='uint8'), np.arange(3, dtype=np.uint8))
print(a > 100, a.astype(np.int64) - 300)
print(np.array([3.7, -1.0, 300.0]).astype(np.uint8))
print(a.tolist(), np.uint8(5), b.transpose((1, 0)), b[:, ::-1])
try:
    a + 300
except OverflowError as e:
    print('OverflowError', e)
