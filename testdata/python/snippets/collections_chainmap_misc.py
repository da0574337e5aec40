# collections.ChainMap lookups and writes, UserDict, abc checks (Mapping, Iterable, Sequence).
import collections
import collections.abc as cabc

defaults = {"lr": 0.1, "epochs": 10}
overrides = {"lr": 0.5}
cm = collections.ChainMap(overrides, defaults)
print(cm["lr"], cm["epochs"], sorted(cm), len(cm))
cm["batch"] = 32
print(overrides, defaults, cm.maps[0] is overrides, dict(cm.new_child({"x": 1}).items()) == {"x": 1, "lr": 0.5, "epochs": 10, "batch": 32})


class Upper(collections.UserDict):
    def __setitem__(self, key, value):
        super().__setitem__(key.upper(), value)


u = Upper(a=1)
u["b"] = 2
print(u, u.data, "A" in u)
print(isinstance({}, cabc.Mapping), isinstance([], cabc.Sequence), isinstance("s", cabc.Iterable), isinstance(3, cabc.Iterable))
print(isinstance((x for x in []), cabc.Generator), isinstance(len, cabc.Callable), issubclass(dict, cabc.MutableMapping))
