# Fake count data as 2019 recommendation and CTR tutorials made it
# (click counts, user activity) with np.random.poisson: numpy's legacy
# draws, number for number, for small and large means.
import numpy as np
np.random.seed(3)
a = np.random.poisson(3.0); print(type(a), a)
print(np.random.poisson(2.5, 10), np.random.poisson(20, 10))
print(np.random.poisson([1, 50, 0.5]).dtype, np.random.poisson(lam=[[1, 2], [3, 4]]))
print(repr(np.random.poisson(0.0)), np.random.poisson(1e3, 3), np.random.poisson(size=4))
np.random.seed(3); np.random.poisson(0.0); print(np.random.random_sample())
np.random.seed(8)
for lam in [0.01, 0.7, 9.99, 10.0, 12.5, 33.3, 150.0, 1e4, 1e7]:
    print(lam, np.random.poisson(lam, 8).tolist())
clicks = np.random.poisson(lam=np.array([[0.5], [4.0], [40.0]]), size=(3, 5))
print(clicks.tolist(), clicks.sum(axis=1).tolist(), np.random.random_sample())
for bad in [-1, float('nan'), 1e20]:
    try: np.random.poisson(bad)
    except ValueError as e: print(e)
try: np.random.poisson([1, -1])
except ValueError as e: print(e)
rs = np.random.RandomState(42)
print(rs.poisson(5, (2, 3)).tolist(), rs.poisson(100.0))
