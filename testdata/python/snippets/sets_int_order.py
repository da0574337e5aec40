# Iteration order of sets of small ints: CPython iterates in hash-table order (ascending for small non-negative ints), which scripts rely on via list(set(labels)).
labels = [3, 1, 2, 3, 1, 0]
print(set(labels), list(set(labels)))
print({5, 4, 3}, {100, 1, 50})
s = {1, 2, 3}
s.remove(1)
s.add(1)
print(s, {4, 3} | {1})
vocab = {w: i for i, w in enumerate(sorted(set([9, 7, 8])))}
print(vocab, dict.fromkeys(set([2, 1])))
