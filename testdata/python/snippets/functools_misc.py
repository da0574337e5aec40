# functools: wraps/update_wrapper, total_ordering, cmp_to_key, singledispatch, cached_property.
import functools


def cmp(a, b):
    return (a[1] > b[1]) - (a[1] < b[1]) or (a[0] > b[0]) - (a[0] < b[0])


print(sorted([("b", 2), ("a", 2), ("c", 1)], key=functools.cmp_to_key(cmp)))


@functools.singledispatch
def describe(x):
    return "object"


@describe.register
def _(x: int):
    return "int %d" % x


@describe.register(list)
def _(x):
    return "list of %d" % len(x)


print(describe(3), describe([1, 2]), describe("s"), describe(True))


class Data:
    def __init__(self):
        self.loads = 0

    @functools.cached_property
    def value(self):
        self.loads += 1
        return 42


d = Data()
print(d.value, d.value, d.loads, "value" in vars(d))


def base(x):
    """doc of base"""
    return x


def wrapper(*a):
    return base(*a)


functools.update_wrapper(wrapper, base)
print(wrapper.__name__, wrapper.__doc__, wrapper.__wrapped__ is base)
