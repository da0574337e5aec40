# Comprehension patterns: nested with multiple conditions, dict inversion with grouping, set of tuples, walrus-free filtering, matrix ops.
m = [[1, 2, 3], [4, 5, 6], [7, 8, 9]]
print([m[i][i] for i in range(3)], [row[::-1] for row in m], [[r[c] for r in m] for c in range(3)])
print([[a * b for b in range(1, 4)] for a in range(1, 4)], sum(x for row in m for x in row if x % 2))
inv = {}
for k, v in {"a": 1, "b": 2, "c": 1}.items():
    inv.setdefault(v, []).append(k)
print(inv, {v: [k for k, vv in {"a": 1, "b": 2, "c": 1}.items() if vv == v] for v in (1, 2)})
print(sorted({(x, y) for x in range(3) for y in range(3) if x < y}), [(i, c) for i, c in enumerate("abc") if i != 1])
print([x for x in range(30) if x % 2 == 0 if x % 3 == 0], [y for y in (x * x for x in range(6)) if y > 5])
print({k: v for k, v in zip("abc", range(3)) if v}, [len(w) for w in "a bb ccc".split()], [*map(str.upper, "ab")])
