# copy on containers: list slicing vs copy.copy vs deepcopy, dict.copy on nested values, copying sets/frozensets/tuples (immutables are shared).
import copy

nested = [[1, 2], [3]]
a, b, c = nested[:], copy.copy(nested), copy.deepcopy(nested)
nested[0].append(99)
print(a, b, c, a[0] is nested[0], c[0] is nested[0])
cfg = {"layers": [64], "name": "x"}
cp = cfg.copy()
cp["layers"].append(32)
cp["name"] = "y"
print(cfg, cp)
t = (1, [2])
print(copy.copy(t) is t, copy.deepcopy(t) is t, copy.deepcopy(t)[1] is t[1], copy.copy(frozenset([1])) is not None, copy.deepcopy((1, 2)) is not None)
s = {1, 2}
s2 = copy.copy(s)
s2.add(3)
print(s, s2)
