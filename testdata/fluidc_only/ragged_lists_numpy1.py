# numpy 1.x (1.14-1.23) made an object array of a ragged list, silently
# (1.20-1.23 with a VisibleDeprecationWarning); numpy 2 raises ValueError,
# so no peer runs this: fluidc follows numpy 1.x (docs/choices.md). The
# 2018-19 programs rely on it: the book scripts average Paddle 1.x's
# Trainer.test() result [np.float32, array([x])] with
# np.array(...).mean(), and readers make np.array of variable-length rows.
# What numpy 1.x made is what `dtype=object` makes (numpy's NEP 34 shows
# `np.array([[1, 2], [1]])` giving `array([list([1, 2]), list([1])],
# dtype=object)`), and testdata/numpy/object_arrays.py checks fluidc's
# `dtype=object` arrays against numpy 2; here the implicit ones must equal
# them.
import numpy as np

ragged = [
    [[1, 2], [1]],
    [[1, 2, 3], [4, 5]],
    [np.float32(1.5), np.array([2.5], dtype="float32")],
    [np.array([1, 2]), np.array([3])],
    [[[1], [2, 3]], [[4], [5]]],
    [1, [2]],
    [["a", "b"], ["c"]],
    (["x"], ["y", "z"], []),
    [np.array([[1, 2], [3]], dtype=object), np.array([[4], [5, 6]], dtype=object)],
]
for r in ragged:
    implicit = np.array(r)
    explicit = np.array(r, dtype=object)
    assert implicit.dtype == np.dtype("O"), r
    assert implicit.shape == explicit.shape, (r, implicit.shape, explicit.shape)
    assert repr(implicit) == repr(explicit), (repr(implicit), repr(explicit))
    assert repr(np.asarray(r)) == repr(explicit)
    assert np.ndim(r) == explicit.ndim and np.shape(r) == explicit.shape

# NEP 34's example, as numpy 1.x printed it.
assert repr(np.array([[1, 2], [1]])) == "array([list([1, 2]), list([1])], dtype=object)"

# The book scripts' average: numpy 1.x's mean of [np.float32(1.5), array([2.5])]
# is the elements' sum, array([4.], dtype=float32), divided by 2.
costs = [np.float32(1.5), np.array([2.5], dtype="float32")]
avg = np.array(costs).mean()
assert repr(avg) == "array([2.], dtype=float32)", repr(avg)
assert repr(np.mean(costs)) == repr(avg) and float(avg[0]) == 2.0
print("avg_cost: %s" % avg)

# A reader's variable-length rows: rows index, iterate and convert back.
rows = np.array([[1, 2, 3], [4, 5], [6]])
assert len(rows) == 3 and rows.shape == (3,) and [len(r) for r in rows] == [3, 2, 1]
assert repr(np.array(rows[1])) == "array([4, 5])"
assert rows[::2].tolist() == [[1, 2, 3], [6]]
assert repr(np.expand_dims(rows, -1).shape) == "(3, 1)"

# With a numeric dtype it stays numpy's error.
try:
    np.array([[1, 2], [3]], dtype="float32")
    raise AssertionError("np.array(ragged, dtype='float32') made an array")
except ValueError as e:
    assert "setting an array element with a sequence" in str(e)
print("ok")
