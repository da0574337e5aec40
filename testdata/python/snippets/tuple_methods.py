# tuples: packing, single-element, immutability, count/index, concatenation, comparison, as dict keys, hashing.
t = 1, 2, 3
single = (5,)
print(t, single, type(single).__name__, (), tuple(), (1) == 1, tuple([1, 2]), tuple("ab"))
print(t.count(2), t.index(3), t + (4,), t * 2, t[::-1], len(t), 2 in t, max(t))
try:
    t[0] = 9
except TypeError as e:
    print("TypeError")
print((1, 2) < (1, 3), (1, 2) < (1, 2, 0), (2,) > (1, 9), (1, "a") == (1, "a"))
grid = {(0, 0): "origin", (1, 2): "p"}
print(grid[(1, 2)], grid[0, 0], sorted(grid))
nested = ([1, 2], 3)
nested[0].append(4)
print(nested)
try:
    hash(nested)
except TypeError as e:
    print("TypeError:", e)
a, b = divmod(17, 5)
print(a, b)
