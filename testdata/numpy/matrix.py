# np.asmatrix as Paddle's 2018 cross_entropy op test built its expected
# output with it, and a matrix's own products and views.
import numpy as np
m = np.asmatrix([[-np.log(0.5)], [-np.log(0.25)]], dtype="float64")
print(repr(m), m.shape, type(m).__name__)
print(m)
a = np.asmatrix([[1.0, 2.0], [3.0, 4.0]])
print(repr(a * a), repr(a ** 2), repr(a.T), repr(a.A))
print(np.allclose(np.asarray(m), [[0.6931], [1.3863]], atol=1e-3), isinstance(m, np.ndarray))
print(repr(np.asmatrix([1, 2, 3])))
