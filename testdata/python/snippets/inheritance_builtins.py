# Subclassing builtins: list with extra methods, dict with attribute access, int subclass arithmetic returning int, str subclass methods.
class Batch(list):
    def total(self):
        return sum(self)

    def __repr__(self):
        return "Batch(%s)" % list.__repr__(self)


b = Batch([1, 2, 3])
b.append(4)
print(b, b.total(), len(b), b[1:3], type(b[1:3]).__name__, type(b + [5]).__name__, isinstance(b, list))


class AttrDict(dict):
    __getattr__ = dict.__getitem__
    __setattr__ = dict.__setitem__


cfg = AttrDict(lr=0.1)
cfg.epochs = 3
print(cfg.lr, cfg["epochs"], cfg, sorted(cfg))


class Meters(int):
    def __repr__(self):
        return "%dm" % self


m = Meters(5)
print(m, repr(m), m + 1, type(m + 1).__name__, m * 2, type(abs(m)).__name__)


class Tag(str):
    def shout(self):
        return self.upper() + "!"


t = Tag("hi")
print(t.shout(), t + "x", type(t + "x").__name__, t.upper(), type(t.upper()).__name__, t == "hi")
