# functools.reduce patterns: composing functions, merging dicts, product, max by reduce, flattening, with operator functions.
import functools
import operator

compose = lambda *fs: functools.reduce(lambda f, g: lambda x: g(f(x)), fs)
pipeline = compose(lambda x: x + 1, lambda x: x * 2, str)
print(pipeline(3), functools.reduce(operator.mul, [1, 2, 3, 4], 1), functools.reduce(max, [3, 9, 2]))
dicts = [{"a": 1}, {"b": 2}, {"a": 3}]
print(functools.reduce(lambda acc, d: {**acc, **d}, dicts, {}), functools.reduce(operator.add, [[1], [2, 3]], []))
print(functools.reduce(lambda s, c: s * 10 + int(c), "2019", 0), functools.reduce(operator.or_, [{1}, {2}, {1, 3}]))
