# set and frozenset operations on ints (deterministic order), methods, comparisons, sorted output of string sets.
a, b = {1, 2, 3, 4}, {3, 4, 5}
print(a | b, a & b, a - b, a ^ b, a <= b, {3} < a, a.isdisjoint({9}), a.issuperset({1, 2}))
c = set()
c.add(3)
c.update([1, 2], (5,))
c.discard(9)
c.remove(1)
print(sorted(c), len(c), 2 in c)
print(c.pop() in {2, 3, 5}, len(c))
try:
    c.remove(99)
except KeyError as e:
    print("KeyError", e)
f = frozenset([1, 2, 2, 3])
print(f, f | {4}, type(f | {4}).__name__, {f: "key"}[frozenset({3, 2, 1})], hash(f) == hash(frozenset([3, 2, 1])))
words = {"pear", "apple", "fig", "apple"}
print(sorted(words), len(words), sorted(words & {"fig", "kiwi"}), sorted(w.upper() for w in words))
s = {10, 20}
s |= {30}
s &= {10, 30, 40}
s -= {10}
print(s, set("hello") == set("ohell"), set(), {()} , set([1, 1, 1]))
print(a.union([7], (8,)), a.intersection(b, {4}), a.difference({1}, {2}), a.symmetric_difference([1, 9]))
print(sorted({x % 4 for x in range(20)}), {1, 2} == frozenset({1, 2}), max({3, 9, 1}), sum({1, 2, 3}))
