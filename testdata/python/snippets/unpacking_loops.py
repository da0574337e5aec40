# Unpacking in for loops and comprehensions: nested tuples, star targets in loops, dict items, enumerate(zip()), swapping list elements.
pairs = [(1, ("a", True)), (2, ("b", False))]
for n, (letter, flag) in pairs:
    print(n, letter, flag)
for first, *rest in [[1, 2, 3], [4], [5, 6]]:
    print(first, rest)
for i, (x, y) in enumerate(zip("ab", [10, 20]), start=1):
    print(i, x, y)
print([a * b for a, b in [(1, 2), (3, 4)]], {k: v for (k, v), _ in zip({"p": 1, "q": 2}.items(), range(5))})
lst = [1, 2, 3, 4]
lst[0], lst[-1] = lst[-1], lst[0]
lst[1:3] = lst[2:0:-1]
print(lst)
(a, b), c = [1, 2], 3
[d, e] = "de"
print(a, b, c, d, e, *"xyz", *[1], sep=",")
