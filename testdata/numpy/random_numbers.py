# numpy.random: the global state and RandomState, exact numbers.
import numpy as np

np.random.seed(42)
print(np.random.rand(), np.random.rand(3), np.random.rand(2, 2))
print(np.random.randn(), np.random.randn(3), np.random.random(), np.random.random((2,)), np.random.random_sample(2))
print(np.random.uniform(), np.random.uniform(-1, 1, 3), np.random.uniform(2, 5, size=(2, 2)), np.random.sample(2))
print(np.random.normal(), np.random.normal(1.0, 0.1, 3), np.random.normal(size=2), np.random.standard_normal(2))
print(np.random.randint(10), np.random.randint(5, 10, size=4), np.random.randint(3, size=(2, 3)), repr(np.random.randint(7, dtype='int32')))
print(repr(np.random.randint(0, 2**40, size=3)), np.random.randint(-5, 5, 6, dtype=np.int32).dtype, type(np.random.randint(4)).__name__)
print(np.random.choice(5), np.random.choice(5, 3), np.random.choice(10, 4, replace=False), repr(np.random.choice([1.5, 2.5, 3.5])))
print(np.random.choice(4, 6, p=[0.1, 0.2, 0.3, 0.4]), np.random.choice([10, 20, 30], size=(2, 2)), np.random.choice(5, 3, replace=False, p=[0.1, 0.1, 0.2, 0.3, 0.3]))
print(np.random.permutation(6), np.random.permutation([1.5, 2.5, 3.5]), np.random.permutation(np.arange(6).reshape(3, 2)))
lst = list(range(8))
np.random.shuffle(lst)
arr = np.arange(10)
np.random.shuffle(arr)
arr2 = np.arange(12).reshape(4, 3)
np.random.shuffle(arr2)
print(lst, arr, arr2)
rs = np.random.RandomState(1234)
print(rs.rand(2), rs.randn(2), rs.randint(0, 100, 3), rs.uniform(0, 10, 2), rs.normal(5, 2, 2), rs.choice(7, 2))
print(rs.random_sample((2, 2)), rs.permutation(5), rs.standard_normal(), rs.random(), type(rs.random()).__name__)
rs.seed(0)
print(rs.rand(3))
rs2 = np.random.RandomState([1, 2, 3])
print(rs2.rand(2), np.random.RandomState(np.int64(5)).randint(100))
print(rs.normal(np.array([0.0, 10.0, 100.0]), np.array([1.0, 2.0, 3.0])), rs.uniform(np.zeros(2), [1.0, 2.0]))
print(rs.normal(0, [1.0, 2.0], size=(3, 2)).shape, rs.uniform(size=()), rs.exponential(2.0, 3), rs.random_integers(3, size=4))
print(repr(rs.rand(0)), rs.randn(2, 0).shape)
for bad in [lambda: rs.randint(5, 5), lambda: rs.normal(0, -1), lambda: rs.choice(3, 5, replace=False),
            lambda: rs.choice(3, p=[0.5, 0.6, 0.1]), lambda: np.random.seed(-1), lambda: rs.choice([]),
            lambda: rs.randint(0, 300, dtype=np.int8) if False else rs.randint(3, 1)]:
    try:
        bad()
    except ValueError as e:
        print("ValueError:", e)
np.random.seed(0)
a = np.random.random_integers(1, 6, 10) if False else np.random.randint(1, 7, 10)
print(a, np.random.rand(3).astype(np.float32))
