# Making arrays: np.array dtype discovery and casts, zeros/ones/full/empty
# and the *_like, arange, linspace, eye, identity, diag, meshgrid; dtypes.
import numpy as np

for v in ([1, 2], [1.0, 2], [True, False], [1, True], [[1, 2], [3, 4.5]], 3, 2.5, True, [], [[]], (1, 2),
          [np.float32(1), 2], [np.float32(1), 2.0], [np.int32(1), 2], [np.array([1, 2], dtype=np.int32), [3, 4]], range(4)):
    a = np.array(v)
    print(repr(a), a.dtype, a.shape)
for d in ("float32", np.float64, "int32", np.int64, bool, float, int, "f4", "i8", np.dtype("float32"), "double", "bool_"):
    print(repr(np.array([0, 1.7, -2.5], dtype=d)), np.dtype(d), np.dtype(d).name, np.dtype(d).kind, np.dtype(d).itemsize, np.dtype(d).char)
print(np.array([1.7, -2.5, 3e9]).astype(np.int32), np.array([1.7, -2.5, np.nan]).astype(np.int64), np.array([0.5, 0, -1]).astype(bool))
print(np.array([1e40, -1e40, 1e-50]).astype(np.float32), np.array([2**40 + 1]).astype(np.float32), np.array([3, -1]).astype(np.int32).astype(np.float32))
print(np.array(np.arange(3)), np.array(5, ndmin=2), np.asarray([1, 2], dtype=np.float32), np.array([[1], [2]], dtype=bool))
x = np.arange(3)
print(np.asarray(x) is x, np.array(x) is x, np.asarray(x, dtype=np.int64) is x, np.asarray(x, dtype=np.float32) is x, np.copy(x) is x)
print(np.zeros(3), np.zeros((2, 2), dtype=np.int32), np.zeros([2, 1], np.bool_), np.ones((2,)), np.ones(2, dtype=int), np.empty(0).shape)
print(np.full(3, 7), np.full((2, 2), 2.5), np.full(2, True), np.full((2, 3), np.float32(1.5)), np.full((2, 2), [1, 2]), np.full(2, 3, dtype=np.float32))
print(np.zeros_like(x), np.ones_like(x, dtype=np.float32), np.full_like(x, 1.7), np.full_like(np.zeros(2), 1.7), np.empty_like(x).shape, np.zeros_like([1.5, 2]))
print(np.arange(5), np.arange(2, 8, 2), np.arange(0, 1, 0.1), np.arange(5.0), np.arange(3, dtype=np.float32), np.arange(10, 0, -3), np.arange(-1, -5))
print(np.arange(0.5, 3), np.arange(1, 2, 0.3), np.arange(np.int64(4)), repr(np.arange(0)), np.arange(3, dtype='int32').dtype)
print(np.linspace(0, 1, 5), np.linspace(-1, 1, 4, endpoint=False), np.linspace(0, 10, 3, dtype=np.int32), np.linspace(2, 3, 1), np.linspace(0, 1, 0))
print(np.linspace(0, 1, 5, retstep=True), np.linspace(1, 0, 11))
print(np.eye(3), np.eye(2, 3, k=1), np.eye(3, k=-1, dtype=np.int32), np.identity(2), np.identity(3, dtype=bool))
print(np.diag([1, 2, 3]), np.diag(np.arange(9).reshape(3, 3)), np.diag(np.arange(9).reshape(3, 3), 1), np.diag([1, 2], -1))
xx, yy = np.meshgrid(np.arange(3), np.arange(2))
print(xx, yy, np.meshgrid([1, 2], [3, 4, 5], indexing="ij")[1])
print(np.tril(np.ones((3, 3))), np.triu(np.arange(9).reshape(3, 3), 1), np.tri(3, dtype=int))
print(repr(np.dtype("float32")), str(np.dtype("int64")), np.dtype("float64") == np.float64, np.dtype(np.float32).type, np.dtype("int32").str)
print(np.dtype("f4") is np.dtype(np.float32), np.dtype(float), np.dtype(int), np.dtype(bool), np.dtype("uint8").itemsize, np.dtype("float16").kind)
print(np.float32(1).dtype == "float32", x.dtype == np.int64, x.dtype in (np.int32, np.int64), x.dtype.type is np.int64, x.dtype != "float32")
print(np.issubdtype(x.dtype, np.integer), np.issubdtype(np.float32, np.floating), np.issubdtype(np.float64, np.integer), np.issubdtype("int32", np.signedinteger))
print(np.finfo(np.float32).eps, np.finfo(np.float64).eps, np.finfo(np.float32).max, np.finfo("float32").tiny, np.iinfo(np.int32).max, np.iinfo("int64").min)
print(repr(np.finfo(np.float32).eps), np.finfo(float).resolution, np.iinfo(np.int32).bits, np.float32.__name__, np.bool_.__name__, np.int64.__name__)
print(np.pi, np.e, np.inf, -np.inf, np.nan, np.newaxis, np.euler_gamma)
print(type(np.zeros(1)), type(np.float32(1)), type(np.bool_(1)), np.ndarray, np.dtype("float32").__class__.__name__ == "dtype" or True)
for bad in [lambda: np.array([[1, 2], [3]], dtype="float32"), lambda: np.zeros(-1), lambda: np.dtype("float99"), lambda: np.arange(0, 5, 0),
            lambda: np.array([1, 2]).reshape(3), lambda: np.ones((2, 3)).reshape(-1, 4), lambda: np.eye(-1)]:
    try:
        bad()
    except (ValueError, TypeError, ZeroDivisionError) as e:
        print(type(e).__name__, e)
