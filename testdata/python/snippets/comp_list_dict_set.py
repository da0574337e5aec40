# Comprehensions: list/dict/set, conditions, nested loops, conditional expressions, unpacking targets.
words = ["apple", "banana", "cherry", "date", "fig"]
print([w.upper() for w in words if len(w) > 3])
print({w: len(w) for w in words})
print(sorted({len(w) for w in words}))
print([(i, j) for i in range(3) for j in range(3) if i != j])
print([[i * j for j in range(4)] for i in range(3)])
print([x if x % 2 else -x for x in range(6)])
pairs = [("a", 1), ("b", 2)]
print({v: k for k, v in pairs})
print([a + b for a, b in zip([1, 2, 3], [10, 20, 30])])
matrix = [[1, 2, 3], [4, 5, 6]]
print([list(r) for r in zip(*matrix)])
print([c for row in matrix for c in row])
print({i % 3 for i in range(10)}, {(i, i % 2) for i in range(3)} == {(0, 0), (1, 1), (2, 0)})
print([i for i in range(20) if i % 2 if i % 3])
