# __new__: singletons, immutable subclasses (int, str, tuple) customizing construction.
class Singleton:
    _instance = None

    def __new__(cls, *args):
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __init__(self, value):
        self.value = value


a = Singleton(1)
b = Singleton(2)
print(a is b, a.value)


class Celsius(float):
    def __new__(cls, value):
        return super().__new__(cls, round(value, 1))

    def __repr__(self):
        return "%s°C" % float.__repr__(self)


print(Celsius(21.456), Celsius(3) + 1, type(Celsius(3) + 1).__name__)


class Upper(str):
    def __new__(cls, s):
        return super().__new__(cls, s.upper())


u = Upper("hello")
print(u, len(u), isinstance(u, str), u + "!", type(u).__name__)


class Pair(tuple):
    def __new__(cls, a, b):
        return super().__new__(cls, (a, b))

    @property
    def first(self):
        return self[0]


p = Pair(1, 2)
print(p, p.first, p + (3,), len(p))
