# Writing a batch of one into a slice, as 2018 readers filled their
# buffers: a value's leading dims of 1 are dropped when they do not fit.
import numpy as np

buf = np.zeros(4)
buf[0:2] = np.ones((1, 2))
grid = np.zeros((2, 3))
grid[1] = np.arange(3.0).reshape(1, 1, 3)
print(buf)
print(grid)
try:
    buf[0:2] = np.ones((2, 2))
except ValueError as e:
    print("ValueError:", e)
try:
    np.arange(6).reshape(4, 2)
except ValueError as e:
    print("ValueError:", e)
