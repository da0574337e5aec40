# Less common functions 2018 scripts use: index conversions, apply_along_axis,
# vectorize, loadtxt, choice from a list of strings, ufunc methods, from numpy
# import *, dtypes of the array API names, np.lib's .npy files on disk.
import io
import os
import tempfile
import numpy as np

print(np.unravel_index(7, (2, 4)), np.unravel_index([1, 6], (2, 4)), np.ravel_multi_index(([0, 1], [2, 3]), (2, 4)))
print(np.apply_along_axis(np.sum, 1, np.arange(6).reshape(2, 3)), np.apply_along_axis(lambda r: r * 2, 0, np.arange(4).reshape(2, 2)))
print(np.vectorize(lambda a, b: a + b)(np.arange(3), 1), np.loadtxt(io.StringIO("1 2\n3 4\n# c\n5 6")))
np.random.seed(3)
print(np.random.choice(["a", "bb", "c"]), np.random.choice(["x", "y"], p=[0.1, 0.9]), np.random.randint(5))
print(np.add.accumulate([1, 2, 3]), np.multiply.outer([1, 2], [1, 2, 3]), np.maximum.reduce([3, 1, 4]), np.add(2, 3, dtype=np.float32))
out = np.zeros(3)
np.add([1, 2, 3], 1, out=out)
print(out, repr(np.exp), np.add.__name__, np.sqrt.nin)
print(np.concat([np.arange(2), np.arange(1)]), np.permute_dims(np.ones((2, 3)), (1, 0)).shape, np.acos(1.0), np.bitwise_invert(np.array([1, 2])))
d = tempfile.mkdtemp()
path = os.path.join(d, "a")
np.save(path, np.arange(6, dtype=np.float32).reshape(2, 3))
b = np.load(path + ".npy")
print(b, b.dtype, sorted(os.listdir(d)))
print(np.flatnonzero([0, 2, 0, 3]), np.argwhere(np.array([[0, 1], [1, 0]])), np.searchsorted([1, 2, 3], 2, side="right"))
print(np.histogram.__name__ if hasattr(np, "histogram") else "-", np.median(np.array([[1, 5], [3, 2]]), axis=0), np.percentile([1, 2, 3, 4], 50))
print(np.nan_to_num(np.array([np.nan, np.inf, -1.0])), np.nansum([1.0, np.nan, 2.0]), np.nanmean(np.array([1.0, np.nan, 3.0])))
print(np.convolve([1, 2, 3], [0, 1, 0.5]), np.convolve([1, 2, 3], [0, 1, 0.5], "same"), np.convolve([1, 2, 3, 4], [1, 1], "valid"))
print(np.bincount([0, 1, 1, 3]), np.bincount([0, 1], weights=[0.5, 1.5]), np.cross([1, 2, 3], [4, 5, 6]), np.outer(np.arange(2), np.arange(3)))
print(np.tensordot(np.arange(6).reshape(2, 3), np.arange(6).reshape(3, 2), axes=([1], [0])), np.inner([1, 2], [3, 4]), np.vdot([1, 2], [3, 4]))
a = np.zeros(4)
np.copyto(a, [1, 2, 3, 4])
np.put(a, [0, 2], [9, 8])
print(a)
