# np.newaxis (None) in indices as 2018 scripts use it (column vectors,
# broadcasting a bias, one-hot labels, adding a batch axis), and copies
# that do not share storage: writing into a copy leaves the original
# alone, writing into the original leaves the copy alone.
import copy

import numpy as np

x = np.arange(6.0).reshape(2, 3)
print(np.newaxis is None, repr(x[:, np.newaxis]), repr(x[np.newaxis, :]), repr(x[None]), repr(x[..., None]))
print(x[:, None, 1], x[None, ..., None].shape, x[0, None], x[np.newaxis, 1, np.newaxis], repr(np.float32(2.0)[None]))
print(np.arange(3)[:, None] + np.arange(2)[None, :], x - x.mean(axis=1)[:, np.newaxis])
labels = np.array([2, 0, 1, 2])
print((labels[:, np.newaxis] == np.arange(3)[np.newaxis, :]).astype(np.float32))
img = np.arange(12, dtype=np.float32).reshape(3, 4)
batch = img[np.newaxis, np.newaxis, :, :]
print(batch.shape, batch[0, 0, 2], img[None, :, :, None].shape, img[:, np.newaxis][1])
x[:, None] = 7
print(x)
y = np.zeros((2, 3))
y[None, 1] = [1, 2, 3]
y[:, np.newaxis, 0] += 5
print(y)

d = np.arange(4.0)
copies = [d.copy(), np.copy(d), d[:].copy(), d.copy().reshape(2, 2), np.array(d), copy.copy(d), copy.deepcopy(d),
          d.astype(np.float64), d.flatten(), np.array(d, copy=True)]
d[0] = 10
d += 1
d *= 2
d.sort()
d.fill(3.5)
d.flat[1] = -1
np.copyto(d, d * 3)
d[d > 0] = 7
print(d)
for c in copies:
    print(c, end=" ")
print()
dd = np.arange(4.0).copy()
dd[1] = 0.5
orig = np.arange(4.0)
c1 = orig.copy()
c1[1] = 0.5
c2 = orig.copy().reshape(2, 2)
c2[1, 1] = -9
c3 = orig[:].copy()
c3 += 100
c4 = np.copy(orig)
c4[::2] = 0
print(orig, dd, c1, c2, c3, c4)
e = np.arange(6).reshape(2, 3)
f = e.copy()
f[0] += 5
np.add(f, 1, out=f)
print(e, f)
g = np.zeros(3, dtype=np.float32)
h = g.copy()
h[...] = 2
print(repr(g), repr(h))
