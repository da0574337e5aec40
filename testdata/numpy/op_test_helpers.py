# What Paddle's 2018-19 op tests computed their expected values with:
# histograms of random draws, isin, pad's edge/reflect/symmetric modes (the
# pad2d test), a range as an index (the sequence_reverse test), float repeat
# counts and a float randint bound.
import numpy as np

a = np.array([0.1, 0.5, 0.6, 2.0, -1.0, 1.0])
print(np.histogram(a, bins=2, range=(0, 1)))
print(np.histogram(a, bins=4))
print(np.histogram(a, bins=[0, 0.5, 1, 3]))
print(np.histogram(a, bins=3, weights=np.arange(6.0)))
print(np.histogram(np.array([2.0, 2.0]), bins=2))
h, e = np.histogram(np.array([1, 2, 2, 3, 3, 3]), bins=3, density=True)
print(np.round(h, 6).tolist(), e.tolist())
print(np.isin(np.array([[1, 5], [2, 0]]), np.arange(3)).tolist(), np.isin([1, 7], [7], invert=True).tolist())
x = np.arange(6).astype('float32').reshape(2, 3)
for mode in ['edge', 'reflect', 'symmetric']:
    print(mode, np.pad(x, [(1, 0), (2, 1)], mode=mode).tolist())
y = np.zeros((5, 2))
y[range(1, 3), :] = 1.0
print(y[range(0, 3), :].tolist(), y[range(2), 1].tolist())
print(np.zeros((1, 2)).repeat([2.0], axis=0).shape, np.repeat(np.arange(3), [1.0, 0.0, 2.0]).tolist())
np.random.seed(3)
draws = [np.random.randint(0, 7.0) for _ in range(5)]
print(all(0 <= d < 7 for d in draws), np.random.RandomState(1).randint(2.0, 9.0, size=3).tolist())
