# dict methods: setdefault, get, pop with default, popitem order, update forms, fromkeys, copy, clear, views, |.
d = {"a": 1}
print(d.setdefault("a", 5), d.setdefault("b", 2), d.setdefault("c"), d)
groups = {}
for word in ["apple", "avocado", "banana", "blueberry", "cherry"]:
    groups.setdefault(word[0], []).append(word)
print(groups)
print(d.get("a"), d.get("zz"), d.get("zz", 0), d.pop("c"), d.pop("zz", "none"), d)
try:
    d.pop("zz")
except KeyError as e:
    print("KeyError", e)
d.update({"x": 9}, y=8)
d.update([("z", 7)])
print(d, d.popitem(), d)
print(dict.fromkeys("abc", 0), dict.fromkeys([1, 2]), dict(zip("ab", [1, 2])), dict([(1, 2)]), dict(a=1))
e = d.copy()
e["a"] = 100
print(d["a"], e["a"], len(e), list(e), list(e.keys()), list(e.values()), list(e.items())[:2])
print({"a": 1} | {"b": 2}, {"a": 1, "b": 2} == {"b": 2, "a": 1}, list(reversed({"a": 1, "b": 2})))
e |= {"q": 0}
e.clear()
print(e, bool(e), "a" in d, 1 in d)
keys = d.keys()
d["new"] = 1
print(keys, keys & {"a", "zz"}, sorted(keys - {"a"}), d.items() >= {("a", 1)})
