# Sets in algorithms: dedup preserving order via dict.fromkeys, membership speedups, set algebra on word lists (printed sorted), frozenset keys for pairs.
words = "to be or not to be that is the question".split()
print(list(dict.fromkeys(words)), len(set(words)), sorted(set(words)))
stop = {"to", "be", "or", "not", "is", "the"}
print([w for w in words if w not in stop], sorted(set(words) - stop), sorted(stop & set(words)))
pairs = {frozenset(p) for p in [("a", "b"), ("b", "a"), ("a", "c")]}
print(len(pairs), sorted(sorted(p) for p in pairs))
seen, dups = set(), set()
for w in words:
    (dups if w in seen else seen).add(w)
print(sorted(dups), sorted({len(w) for w in words}), {x for x in range(10) if x % 3 == 0} == {0, 3, 6, 9})
