# Function parameters: defaults, keyword-only, positional-only, *args/**kwargs, mutable default pitfall, introspection.
def f(a, b=2, *args, c, d=4, **kw):
    return a, b, args, c, d, sorted(kw.items())


print(f(1, c=3), f(1, 5, 6, 7, c=8, e=9), f(c=1, a=0))


def pos_only(a, b, /, c):
    return a + b + c


print(pos_only(1, 2, 3), pos_only(1, 2, c=3))
try:
    pos_only(1, b=2, c=3)
except TypeError as e:
    print("TypeError")


def append_to(x, acc=[]):
    acc.append(x)
    return acc


print(append_to(1), append_to(2), append_to(3, []))
print(f.__name__, f.__defaults__, f.__kwdefaults__, f.__code__.co_argcount, f.__code__.co_kwonlyargcount)
print(f.__code__.co_varnames[:4])
try:
    f(1)
except TypeError as e:
    print("TypeError")


def doc():
    """First line.

    More details.
    """


print(doc.__doc__.splitlines()[0], doc() is None)
import inspect
print(inspect.signature(f), list(inspect.signature(pos_only).parameters))
