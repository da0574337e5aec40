# dict subclasses: __missing__, overriding __getitem__/__setitem__, dict views after mutation, dict equality with subclasses.
class Vocab(dict):
    def __missing__(self, key):
        idx = len(self)
        self[key] = idx
        return idx


v = Vocab()
print([v[w] for w in "the cat the dog".split()], v, v.get("bird"), "bird" in v)


class Lower(dict):
    def __setitem__(self, k, val):
        super().__setitem__(k.lower(), val)

    def __getitem__(self, k):
        return super().__getitem__(k.lower())


d = Lower()
d["LR"] = 0.1
print(d["lr"], d["Lr"], d, d == {"lr": 0.1}, isinstance(d, dict), type(d).__name__)
base = {"a": 1, "b": 2}
keys, values, items = base.keys(), base.values(), base.items()
base["c"] = 3
del base["a"]
print(list(keys), list(values), list(items), len(keys))
