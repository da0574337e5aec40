# collections.defaultdict: list/int/set/lambda factories, nested defaultdicts, missing keys, repr, default_factory None.
from collections import defaultdict

groups = defaultdict(list)
for name, score in [("a", 1), ("b", 2), ("a", 3)]:
    groups[name].append(score)
print(groups, dict(groups), groups["c"], len(groups))
counts = defaultdict(int)
for ch in "hello":
    counts[ch] += 1
print(sorted(counts.items()), counts.default_factory)
tree = lambda: defaultdict(tree)
t = tree()
t["a"]["b"]["c"] = 1
print(t["a"]["b"]["c"], list(t["a"]))
d = defaultdict(lambda: "N/A", {"k": "v"})
print(d["k"], d["other"], "other" in d, d.get("nope"), "nope" in d)
n = defaultdict(None)
try:
    n["x"]
except KeyError as e:
    print("KeyError", e)
s = defaultdict(set)
s[1].add("x")
print(s)
