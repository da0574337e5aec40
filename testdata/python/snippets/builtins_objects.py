# Object builtins: getattr/setattr/hasattr/delattr, isinstance/issubclass, type, callable, dir on a class, vars, id-free identity checks.
class A:
    x = 1

    def method(self):
        return "m"


a = A()
print(getattr(a, "x"), getattr(a, "y", None), hasattr(a, "method"), callable(a.method), callable(A.x))
setattr(a, "y", 5)
print(a.y, vars(a))
delattr(a, "y")
print(hasattr(a, "y"))
try:
    getattr(a, "nope")
except AttributeError as e:
    print("AttributeError:", e)
print(type(a) is A, type(A) is type, type(type) is type, type(None).__name__, type(print).__name__, type(len).__name__)
print([n for n in dir(A) if not n.startswith("__")], "method" in dir(a), "__init__" in dir(a))
print(isinstance(a, object), issubclass(A, object), isinstance(A, type), isinstance(None, type(None)))
b = a
print(a is b, a is not A(), a == b, None is None, [] is [], () == ())
print(len([1, 2]), len("abc"), len({}), len(range(5)), len(b"xy"), len({1: 2}))
print(repr(None), repr(...), Ellipsis is ..., NotImplemented is NotImplemented)
print(int.__name__, str.__doc__.splitlines()[0], abs.__name__, object.__name__)
