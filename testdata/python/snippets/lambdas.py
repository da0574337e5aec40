# lambda: defaults, *args/**kwargs, immediately invoked, closures, in sort keys/map/filter, conditional bodies.
add = lambda a, b=10: a + b
print(add(1), add(1, 2), (lambda *a, **k: (a, sorted(k)))(1, 2, x=3), (lambda: "noargs")())
print(list(map(lambda x: x ** 2, range(5))), list(filter(lambda x: x % 2, range(10))))
make_adder = lambda n: (lambda x: x + n)
print(make_adder(5)(10), add.__name__, (lambda x: x).__code__.co_argcount)
sign = lambda x: "pos" if x > 0 else ("neg" if x < 0 else "zero")
print([sign(v) for v in (-2, 0, 3)])
ops = {"+": lambda a, b: a + b, "*": lambda a, b: a * b}
print(ops["+"](2, 3), ops["*"](2, 3))
from functools import reduce
print(reduce(lambda acc, x: acc * x, range(1, 6)), sorted([(1, "b"), (0, "c")], key=lambda t: t[1]))
kw = lambda *, key: key
print(kw(key="only"))
