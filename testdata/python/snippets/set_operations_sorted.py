# Set operations over string data printed in sorted order: vocabulary overlap, Jaccard similarity, symmetric differences, subset checks.
a = set("the cat sat on the mat".split())
b = set("the dog sat on the log".split())
print(sorted(a & b), sorted(a | b), sorted(a - b), sorted(b - a), sorted(a ^ b))
print(round(len(a & b) / len(a | b), 4), {"sat", "on"} <= a, a >= {"cat"}, a.isdisjoint({"zebra"}), len(a | b))
c = a.copy()
c.difference_update({"the"})
c.symmetric_difference_update({"cat", "new"})
print(sorted(c), sorted(a.intersection(b, {"sat", "x"})), sorted(a.union(["z"], ("y",))))
