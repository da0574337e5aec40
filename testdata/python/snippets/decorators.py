# Decorators: simple, with arguments, functools.wraps metadata, stacking order, class decorators, decorating methods.
import functools

calls = []


def trace(fn):
    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        calls.append(fn.__name__)
        result = fn(*args, **kwargs)
        print("%s%r -> %r" % (fn.__name__, args, result))
        return result
    return wrapper


def repeat(n):
    def deco(fn):
        def wrapper(*a):
            return [fn(*a) for _ in range(n)]
        return wrapper
    return deco


def bold(fn):
    return lambda: "<b>" + fn() + "</b>"


def italic(fn):
    return lambda: "<i>" + fn() + "</i>"


@trace
def add(a, b):
    """Adds."""
    return a + b


@repeat(3)
def hello(name):
    return "hi " + name


@bold
@italic
def text():
    return "t"


add(1, 2)
print(add.__name__, add.__doc__, add.__wrapped__(5, 5), calls)
print(hello("bob"), text())


def register(cls):
    cls.registered = True
    return cls


@register
class Model:
    def __repr__(self):
        return "Model()"

    @trace
    def forward(self, x):
        return x * 2


print(Model.registered, Model().forward(21))
