# np.ndarray(shape, dtype, buffer=arr, offset=...) over another array's
# elements, as Paddle's maxout op test regrouped channels for its expected output.
import numpy as np
x = np.arange(8).astype("float32").reshape(1, 4, 2, 1)
v = np.ndarray([1, 2, 2, 2, 1], buffer=x, dtype=x.dtype)
print(v.shape, v.max(axis=2).reshape(2, 2))
w = np.ndarray((3,), dtype='float32', buffer=x, offset=8)
print(w)
try:
    np.ndarray((9,), dtype='float32', buffer=x)
except TypeError as e:
    print('TypeError', e)
