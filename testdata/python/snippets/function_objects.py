# Functions as objects: attributes, __defaults__ mutation, __code__ details, __qualname__ of nested functions, functions in dicts, partial application by closures.
def make(kind):
    def layer(x, scale=2):
        return "%s(%s)" % (kind, x * scale)
    return layer


fc = make("fc")
print(fc(3), fc.__name__, fc.__qualname__, fc.__defaults__, fc.__code__.co_argcount, fc.__code__.co_varnames)
fc.__defaults__ = (10,)
print(fc(3))
fc.custom = "attached"
print(fc.custom, vars(fc)["custom"], callable(fc), type(fc).__name__)
table = {"double": lambda v: v * 2, "neg": lambda v: -v}
print({k: f(5) for k, f in table.items()}, make.__module__, make.__doc__)


def kwonly(*, a, b=1):
    return a + b


print(kwonly.__kwdefaults__, kwonly(a=1), kwonly.__code__.co_kwonlyargcount)
