# Python conversions and protocols: float/int/bool of 0-d arrays, len,
# iteration, truth values, tolist/item, copy, pickle, .npy files,
# numpy.testing messages.
import copy
import io
import pickle
import numpy as np
import numpy.testing as npt

z = np.array(2.75, dtype=np.float32)
print(float(z), int(z), bool(z), int(np.array(7)), float(np.array(True)), [10, 20][np.array(1)], complex(np.array(1.5)).real)
print(np.arange(3).tolist(), np.zeros((2, 2), dtype=np.int32).tolist(), z.tolist(), np.array([[True]]).tolist(), np.array(5).item())
print(np.arange(6).reshape(2, 3).item(4), np.arange(6).reshape(2, 3).item(1, 2), np.arange(6).item((1)), type(np.float32(2).item()))
for bad in [lambda: bool(np.arange(3)), lambda: bool(np.zeros(0)), lambda: len(np.array(1)), lambda: iter(np.array(1.0)),
            lambda: np.arange(3).item(), lambda: {np.arange(2): 1}, lambda: [1, 2][np.array([1])], lambda: int(np.arange(2)),
            lambda: np.float32("x"), lambda: np.array([1.5]) + "a", lambda: f"{np.arange(2):.2f}"]:
    try:
        bad()
    except (TypeError, ValueError) as e:
        print(type(e).__name__, e)
a = np.arange(6, dtype=np.float32).reshape(2, 3)
b = copy.copy(a)
c = copy.deepcopy(a)
b[0, 0] = 9
print(a[0, 0], b[0, 0], c.dtype, pickle.loads(pickle.dumps(a)), pickle.loads(pickle.dumps(np.float32(1.5))), pickle.loads(pickle.dumps(np.zeros((0, 2)))).shape)
buf = io.BytesIO()
np.save(buf, a)
buf.seek(0)
print(len(buf.getvalue()), buf.getvalue()[:60])
buf.seek(0)
print(repr(np.load(buf)))
print(a.tobytes()[:8], np.frombuffer(np.arange(3, dtype=np.int32).tobytes(), dtype=np.int32), a.strides, a.T.shape)
cases = [
    lambda: npt.assert_allclose(np.array([1.0, 2.1, 3.0]), [1, 2, 3]),
    lambda: npt.assert_allclose(np.array([1.0, 2.1, 3.0], dtype=np.float32), [1, 2, 3], rtol=1e-3, err_msg="hello"),
    lambda: npt.assert_array_equal(np.array([1, 2, 3]), [1, 2, 4]),
    lambda: npt.assert_array_equal(np.array([1, 2, 3]), [1, 2]),
    lambda: npt.assert_equal(1, 2),
    lambda: npt.assert_almost_equal(1.0, 1.1),
    lambda: npt.assert_almost_equal(np.array([1.0, 2.0]), [1.0, 2.1]),
    lambda: npt.assert_array_almost_equal(np.array([1.0, 2.0]), [1.0, 2.1], decimal=3),
    lambda: npt.assert_allclose(2.0, 2.5),
    lambda: npt.assert_array_less([1, 2], [1, 3]),
    lambda: npt.assert_equal([1, 2], [1, 3]),
    lambda: npt.assert_equal(np.array([1, 2]), np.array([1, 3])),
    lambda: npt.assert_allclose(np.arange(10.0) / 3, np.arange(10.0) / 3 + np.arange(10) * 1e-3),
    lambda: npt.assert_allclose(np.array([1.0, np.nan]), [1.0, 2.0]),
    lambda: npt.assert_allclose(np.ones(3), np.ones(3)),
    lambda: npt.assert_array_equal(np.arange(4).reshape(2, 2), [[0, 1], [2, 2]]),
]
for f in cases:
    try:
        f()
        print("passed")
    except AssertionError as e:
        print(repr(str(e)))
np.set_printoptions(precision=3, suppress=True)
print(np.array([1.23456789, 1e-9, 100.5]), np.array([1e-9, 1.0], dtype=np.float32), repr(np.array([0.5, 2.0 / 3])))
np.set_printoptions(threshold=5, edgeitems=2)
print(np.arange(10), np.arange(4))
with np.printoptions(precision=1, linewidth=20):
    print(np.linspace(0, 1, 11))
print(np.linspace(0, 1, 4))
np.set_printoptions(precision=8, suppress=False, threshold=1000, edgeitems=3)
print(np.array([1 / 3]), np.get_printoptions()["precision"], np.array2string(np.array([0.5, 1.0])), np.array2string(np.float64(1 / 3)))
