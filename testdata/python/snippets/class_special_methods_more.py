# More special methods: __contains__ vs __iter__ fallback, __len__ used by bool, __getitem__ with tuple keys, __missing__ in dict subclass, __round__/__trunc__/__floor__.
import math


class Grid:
    def __init__(self):
        self.cells = {}

    def __getitem__(self, key):
        r, c = key
        return self.cells.get((r, c), ".")

    def __setitem__(self, key, value):
        self.cells[key] = value

    def __len__(self):
        return len(self.cells)


g = Grid()
print(bool(g), g[0, 0])
g[1, 2] = "#"
print(bool(g), g[1, 2], len(g), g[(1, 2)])


class Measure:
    def __init__(self, v):
        self.v = v

    def __round__(self, n=None):
        return Measure(round(self.v, n))

    def __trunc__(self):
        return int(self.v)

    def __floor__(self):
        return math.floor(self.v)

    def __ceil__(self):
        return math.ceil(self.v)

    def __repr__(self):
        return "Measure(%r)" % self.v


m = Measure(2.567)
print(round(m, 1), round(m), math.trunc(m), math.floor(m), math.ceil(m))


class Seq:
    def __iter__(self):
        return iter([1, 2, 3])


print(2 in Seq(), 5 in Seq(), list(Seq()), sorted(Seq(), reverse=True))
