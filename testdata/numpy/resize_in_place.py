# ndarray.resize in place, as a 2018 GAN demo reshaped its fetched
# [N, 784] generator output into N 28x28 images before plotting, and as
# buffers were grown (zero-filled) or cut when a batch came up short.
import numpy as np

gen = (np.arange(2 * 16, dtype='float32') / 8.0 - 1.0).reshape(2, 16)
r = gen.resize(gen.shape[0], 4, 4)
print(r, gen.shape, gen.dtype, gen[1, 3].tolist())

a = np.arange(6, dtype='float32')
a.resize((2, 3))
print(a)
b = np.arange(4)
b.resize(6)
print(b, b.dtype)
c = np.arange(10, dtype='int32').reshape(2, 5).copy()
c.resize([3, 2])
print(c)
d = np.ones((2, 2), dtype='bool')
d.resize(5)
print(d)
e = np.arange(3.0)
e.resize(0)
print(e, e.shape)
try:
    e.resize(-1)
except ValueError as err:
    print('ValueError', err)
