# Nested with blocks and exceptions: exit order, an __exit__ that suppresses only some exceptions, exceptions raised inside __exit__.
class CM:
    def __init__(self, name, swallow=()):
        self.name, self.swallow = name, swallow

    def __enter__(self):
        print("enter", self.name)
        return self

    def __exit__(self, t, v, tb):
        print("exit", self.name, t.__name__ if t else "-")
        return t is not None and issubclass(t, self.swallow)


with CM("outer", swallow=(KeyError,)):
    with CM("inner", swallow=(ValueError,)):
        raise KeyError("k")
    print("not reached")
print("after outer")
try:
    with CM("a"), CM("b", swallow=(TypeError,)):
        raise IndexError("i")
except IndexError:
    print("IndexError escaped")


class Broken:
    def __enter__(self):
        return self

    def __exit__(self, *a):
        raise RuntimeError("exit failed")


try:
    with Broken():
        raise ValueError("original")
except RuntimeError as e:
    print("RuntimeError", e, "context:", type(e.__context__).__name__)
