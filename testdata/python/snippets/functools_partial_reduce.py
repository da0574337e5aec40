# functools.partial (args, keywords, attributes, nested), reduce with initializer, partial in map.
import functools


def power(base, exp, mod=None):
    return pow(base, exp, mod) if mod else base ** exp


square = functools.partial(power, exp=2)
cube_mod = functools.partial(power, exp=3, mod=7)
print(square(5), cube_mod(4), square.func is power, square.args, square.keywords)
twice = functools.partial(functools.partial(power, 2), 10)
print(twice(), list(map(functools.partial(power, exp=3), range(4))))
print(functools.reduce(lambda a, b: a + b, [1, 2, 3, 4]), functools.reduce(lambda a, b: a * b, [], 1))
print(functools.reduce(lambda acc, kv: dict(acc, **{kv[0]: kv[1]}), [("a", 1), ("b", 2)], {}))
try:
    functools.reduce(lambda a, b: a, [])
except TypeError as e:
    print("TypeError")
print(repr(functools.partial(int, base=2))[:25], functools.partial(int, base=2)("101"))
