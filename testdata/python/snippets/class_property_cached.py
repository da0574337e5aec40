# Lazy attributes: property caching in __dict__, functools.cached_property invalidation by del, __getattr__ computed on first access.
import functools


class Dataset:
    def __init__(self, n):
        self.n = n
        self.loads = 0

    @functools.cached_property
    def samples(self):
        self.loads += 1
        return list(range(self.n))

    @property
    def size(self):
        if "_size" not in self.__dict__:
            print("computing size")
            self._size = len(self.samples)
        return self._size


d = Dataset(4)
print(d.samples, d.samples, d.loads, d.size, d.size)
del d.samples
print(d.samples, d.loads)


class Lazy:
    def __getattr__(self, name):
        if name.startswith("get_"):
            value = name[4:].upper()
            setattr(self, name, value)
            print("computed", name)
            return value
        raise AttributeError(name)


l = Lazy()
print(l.get_x, l.get_x, "get_x" in vars(l))
