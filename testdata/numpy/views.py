# Views alias their base, as the finite-difference checks of 2018 unittests rely on: `p[i][j] += delta` changes p,
# rows of `for row in a` and `a.ravel()` write through, `copy()` and fancy indexing do not.
import numpy


def numeric_grad(f, p, delta=0.001):
    g = numpy.zeros(shape=p.shape, dtype=p.dtype)
    for i in range(p.shape[0]):
        for j in range(p.shape[1]):
            o = p[i][j]
            p[i][j] += delta
            pos = f()
            p[i][j] -= 2 * delta
            neg = f()
            p[i][j] = o
            g[i][j] = (pos - neg) / (delta * 2)
    return g


w = numpy.arange(6, dtype='float64').reshape(2, 3) / 10.0
x = numpy.array([[1.0, 2.0], [3.0, -1.0]])
print(numeric_grad(lambda: float((x.dot(w) ** 2).sum()), w))
print(2 * x.T.dot(x.dot(w)))
print(w)

p = numpy.zeros((2, 3), dtype='float32')
r = p[0]
r[1] = 2
o = p[1][2]
p[1][2] = 7
print(p, r, o)
a = numpy.arange(6.0).reshape(2, 3)
a.ravel()[1] = 9
a.reshape(3, 2)[0, 0] = -1
for row in a:
    row[2] = 100
print(a)
v = a[:, 1:]
a[0, 1] = 55
print(v)
v *= 2
print(a)
u = a.ravel()
u.shape = (3, 2)
u[0, 0] = 1
print(a, u)
a.shape = (3, 2)
print(v)
c = a[0].copy()
c[0] = 1000
y = numpy.array(a[1])
y[0] = 999
q = a[numpy.array([0, 1])]
q[0][0] = -5
print(a)
z = a[::-1]
z[0][0] = 3
t = a[..., 0]
t[:] = 0
a[1] += 1
print(a)
k = numpy.ones((2, 2, 2), dtype='int64')
k[0][1][1] = 5
print(k[0], k[0].dtype, repr(k[1][0]))

buf = numpy.arange(100.0)
rest = buf
for _ in range(40):
    rest = rest[1:]
rest[0] = -1
print(buf[38:42], rest.shape)
m = numpy.arange(12).reshape(3, 4)
col = m[:, 1]
col.shape = (3, 1)
col[2, 0] = 70
right = m[:, 1:]
try:
    right.shape = (9,)
except AttributeError as e:
    print("AttributeError:", e)
print(right.reshape(9), m[::2].ravel(), m[:, ::2].reshape(3, 2, 1).shape)
flat = m.ravel()
flat.shape = (4, 3)
flat[3] = 0
print(m)
