# dict insertion order, modification during iteration error, deleting and re-inserting keys, nested dicts, defaults.
d = {}
for k in ["z", "a", "m", "b"]:
    d[k] = len(d)
print(d, list(d))
del d["a"]
d["a"] = 9
d["z"] = -1
print(d)
try:
    for k in d:
        d["new" + k] = 1
except RuntimeError as e:
    print("RuntimeError:", e)
counts = {}
for ch in "mississippi":
    counts[ch] = counts.get(ch, 0) + 1
print(counts, sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])))
nested = {"model": {"layers": [64, 32], "act": "relu"}, "lr": 0.1}
print(nested["model"]["layers"][-1], nested.get("opt", {}).get("name", "sgd"))
print({1: "int", 1.0: "float", True: "bool"}, {(1, 2): "tuple"}[(1, 2)])
try:
    {[1]: 2}
except TypeError as e:
    print("TypeError:", e)
print(len({i: i for i in range(1000)}), {i: i * i for i in range(5)})
