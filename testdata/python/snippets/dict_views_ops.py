# Dictionary views: set operations on keys/items, views reflect changes, view membership, reversed views, len, comparing dicts with ==.
a = {"x": 1, "y": 2, "z": 3}
b = {"y": 20, "z": 3, "w": 0}
print(sorted(a.keys() & b.keys()), sorted(a.keys() | b.keys()), sorted(a.keys() - b.keys()), sorted(a.keys() ^ b.keys()))
print(sorted(a.items() & b.items()), ("x", 1) in a.items(), 3 in a.values(), "x" in a.keys())
v = a.values()
a["q"] = 9
print(list(v), len(v), list(reversed(a.keys())), list(reversed(a.items()))[0])
print(a == {"q": 9, "z": 3, "y": 2, "x": 1}, a.keys() == {"x", "y", "z", "q"}, list(a.values()) == [1, 2, 3, 9])
print({k: a[k] for k in sorted(a.keys() - {"q"})}, dict(sorted(a.items(), key=lambda kv: kv[1], reverse=True)))
