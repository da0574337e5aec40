# __getattr__ fallback, __setattr__ interception, __delattr__, getattr with default.
class Record:
    def __init__(self, **fields):
        object.__setattr__(self, "_fields", dict(fields))

    def __getattr__(self, name):
        try:
            return self._fields[name]
        except KeyError:
            raise AttributeError("no field %r" % name) from None

    def __setattr__(self, name, value):
        print("set", name, value)
        self._fields[name] = value

    def __delattr__(self, name):
        print("del", name)
        del self._fields[name]


r = Record(a=1, b=2)
print(r.a, r.b)
r.c = 3
print(r.c, getattr(r, "zz", "default"), hasattr(r, "zz"))
del r.a
try:
    r.a
except AttributeError as e:
    print("AttributeError:", e)


class Logged:
    def __init__(self):
        self.x = 1

    def __getattribute__(self, name):
        if not name.startswith("__"):
            print("get", name)
        return object.__getattribute__(self, name)


lg = Logged()
print(lg.x)
