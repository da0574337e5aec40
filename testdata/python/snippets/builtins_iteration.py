# Iteration builtins: enumerate with start, zip (uneven, strict), reversed, range ops, iter with sentinel, map with several iterables.
names = ["a", "b", "c"]
print(list(enumerate(names)), list(enumerate(names, 1)), dict(enumerate("xy")))
print(list(zip(names, range(10))), list(zip()), list(zip("ab", "cd", "ef")))
try:
    list(zip([1, 2], [1], strict=True))
except ValueError as e:
    print("ValueError")
print(list(reversed(names)), list(reversed(range(5))), list(reversed((1, 2))))
r = range(2, 20, 3)
print(r, len(r), r[2], r[-1], 8 in r, 9 in r, r.index(11), r.count(5), list(r), range(5) == range(0, 5))
print(list(range(10, 0, -3)), list(range(0)), list(range(-3)), range(0, 10, 2)[1:3])
it = iter([1, 2, 3, 0, 4])
print(list(iter(lambda: next(it), 0)))
print(list(map(lambda a, b: a * b, [1, 2, 3], [4, 5])), list(map(str.upper, "ab")))
print(list(filter(None, [0, 1, "", "x", None, [], [0]])))
i = iter("xyz")
print(next(i), list(i), next(i, "end"))
