# Object arrays (dtype=object) as 2018-19 scripts met them: numpy 1.x made
# one from a ragged list (the readers' variable-length rows, Trainer.test()'s
# [np.float32, array([x])]); here they are made with dtype=object, which
# numpy 2 still takes. Shapes of nested lists and arrays, printing (list(...)
# for lists, summarization, arrays inside), indexing, slicing, assignment,
# iteration, tolist, element-wise arithmetic and comparisons with numbers,
# numpy scalars and arrays, sum and mean (the book scripts' average of
# [np.float32, array([x])]), astype both ways, np.zeros/np.empty/np.full of
# objects, shuffling, and the errors numpy gives.
import numpy as np


def attempt(s):
    try:
        print(s, "->", repr(eval(s)))
    except Exception as e:
        print(s, "->", type(e).__name__, e)


rows = np.array([[1, 2, 3], [4, 5]], dtype=object)
print(repr(rows), rows, rows.shape, rows.ndim, rows.size, len(rows), rows.dtype, repr(rows.dtype))
print(rows.itemsize, rows.nbytes, rows.strides, rows.dtype.kind, rows.dtype.char, rows.dtype.str, rows.dtype.name,
      rows.dtype.itemsize, rows.dtype.hasobject, rows.dtype.byteorder, type(rows).__name__, isinstance(rows, np.ndarray))
print(rows.dtype == object, rows.dtype == np.dtype("O"), rows.dtype == "O", rows.dtype == np.float32, np.dtype(object), repr(np.dtype("O")))
print(rows[0], rows[-1], type(rows[0]).__name__, repr(rows[:1]), repr(rows[::-1]), repr(rows[[1, 0]]), repr(rows[np.array([True, False])]))
print([len(r) for r in rows], [np.array(r) for r in rows], rows.tolist(), list(rows))
print(np.ndim(rows), np.shape(rows), np.size(rows))
attempt("rows[2]")
attempt("rows[0, 1]")

# Trainer.test() returns [np.float32, array([x])]; the book scripts average it.
costs = np.array([np.float32(1.5), np.array([2.5], dtype="float32")], dtype=object)
print(repr(costs), costs, repr(costs.sum()), repr(costs.mean()), costs.mean())
print(repr(np.mean(costs)), repr(np.sum(costs)), float(costs.mean()[0]))
print(repr(np.array([np.array([3]), np.array([4, 5])], dtype=object).mean()))
print(repr(np.array([np.float32(1), 2, 3.5], dtype=object).mean()), repr(np.array([1, 2], dtype=object).sum()))
m = np.array([[1, 2], [3, 4]], dtype=object)
print(repr(m), repr(m.sum()), repr(m.sum(axis=0)), repr(m.sum(axis=1, keepdims=True)), repr(m.mean(axis=1)), repr(m.mean(0)))
print(repr(np.array([], dtype=object).sum()), repr(rows.sum()), repr(np.array([[1], [2, 3]], dtype=object).sum(axis=0)))
attempt("m.sum(axis=2)")

# Shapes: lists and arrays nest as far as their lengths agree.
print(repr(np.array([[[1], [2, 3]], [[4], [5]]], dtype=object)))
print(repr(np.array([1, [2]], dtype=object)), repr(np.array([(1, 2), (3,)], dtype=object)))
print(repr(np.array([np.array([1, 2]), np.array([3, 4])], dtype=object)), type(np.array([np.array([1, 2])], dtype=object)[0, 0]).__name__)
print(repr(np.array([np.array([1, 2]), np.array([3])], dtype=object)))
print(repr(np.array([None, "a", 1.5, (1, 2), {"k": 1}], dtype=object)), repr(np.array(5, dtype=object)), np.array(5, dtype=object))
print(repr(np.array([], dtype=object)), np.array([], dtype=object), repr(np.array([[], []], dtype=object)))
print(repr(np.array([["a", "b"], ["c"]], dtype=object)), np.array([["a", "b"], ["c"]], dtype=object))
print(repr(np.array(rows)), repr(np.asarray(rows)) == repr(rows), np.asarray(rows) is rows, repr(np.array(rows, ndmin=2)))
attempt("np.array([np.zeros((2, 3)), np.zeros((2, 4))], dtype=object)")
r2 = np.array([[4], [5, 6]], dtype=object)
print(repr(np.array([rows, r2], dtype=object)), repr(np.array([rows, [1, 2]], dtype=object)), repr(np.array((rows, r2[:1]), dtype=object)))

# Printing: wrapping, summarization, arrays inside.
print(repr(np.array(["w%d" % i for i in range(30)] + [[1]], dtype=object)))
print(repr(np.array([np.arange(12).reshape(3, 4), [1]], dtype=object)))
print(np.array([np.arange(12).reshape(3, 4), [1]], dtype=object))
print(repr(np.array([[i] * (i % 3) for i in range(1200)], dtype=object)))
print(np.array([list(range(i)) for i in range(8)], dtype=object))
print(repr(np.array([np.float64(0.1), np.int64(3), True, np.array([0.5, 1.5])], dtype=object)))

# Element-wise arithmetic and comparisons.
a = np.array([1, 2.5, 3], dtype=object)
print(repr(a + 1), repr(1 + a), repr(a * 2), repr(a / 2), repr(a // 2), repr(a % 2), repr(a ** 2), repr(2 ** a))
print(repr(a - np.array([1.5, 2, 3])), repr(np.array([1.5, 2, 3]) - a), repr(a + np.float32(1.5)), repr(np.float32(1.5) + a))
print(repr(-a), repr(abs(-a)), repr(+a), repr(rows + rows), repr(rows * 2), repr(rows + np.array([[0], [9, 9]], dtype=object)))
print(repr(a == 1), repr(a != 1), repr(a < 2.5), repr(a <= 2.5), repr(a > 2.5), repr(a >= [1, 3, 3]), repr(np.int64(3) == a))
print(repr(np.array([[1], [2, 3]], dtype=object) == 1), 1 in a, 7 in a)
print(repr(np.array(5, dtype=object) + 1), repr(np.array(5, dtype=object) == 5), repr(np.array([1, 2], dtype=object) & 3))
b = np.array([1, 2, 3], dtype=object)
b += 1
print(repr(b))
b *= 2.0
print(repr(b))
attempt("rows == [1, 2, 3]")
attempt("a + np.array([1, 2])")

# Assignment, copies, shapes.
e = np.empty(3, dtype=object)
print(repr(e))
e[0] = [1, 2]
e[1:] = [3, [4]]
print(repr(e), repr(np.zeros(2, dtype=object)), repr(np.ones((2, 2), dtype=object)), repr(np.full(2, "x", dtype=object)))
c = rows.copy()
c[0] = "changed"
print(repr(c), repr(rows))
print(repr(m.T), repr(m.reshape(4)), repr(m.ravel()), repr(m.flatten()), repr(rows.reshape(2, 1)), repr(np.expand_dims(rows, -1)))
print(repr(np.squeeze(rows.reshape(1, 2))), repr(m.transpose()), repr(m[:, 0]), repr(m[1]), repr(m[..., None].shape), m.item(3), m.item(1, 0))
np.random.seed(5)
s = np.array([[i] * i for i in range(6)], dtype=object)
np.random.shuffle(s)
print(repr(s))

# Conversions.
print(repr(np.array([1, 2.5], dtype=object).astype("float32")), repr(np.array([1, "2"], dtype=object).astype(int)))
print(repr(np.array([None, 2], dtype=object).astype("float64")), repr(np.array([0, 1, [0]], dtype=object).astype(bool)))
print(repr(np.array([1.5, 2]).astype(object)), type(np.array([1.5, 2], np.float32).astype(object)[0]).__name__, repr(m.astype(object)))
print(repr(np.array(m, dtype="int64")), repr(np.array([[1, 2], [3]], dtype=object).astype(object)))
print(float(np.array(2.5, dtype=object)), int(np.array(7, dtype=object)), float(np.array(np.float32(0.5), dtype=object)))
attempt("rows.astype(float)")
attempt("rows.astype('int64')")
attempt("np.array(['a', 2], dtype=object).astype('float32')")
attempt("np.array([[1, 2], [3]], dtype='float32')")
attempt("bool(rows)")
