# Starred unpacking: a, *b = ..., nested unpacking, starred in calls, list/dict/set displays, swap, for-loop targets.
first, *rest = [1, 2, 3, 4]
*init, last = "abcd"
a, (b, c), *d = 1, (2, 3), 4, 5
print(first, rest, init, last, a, b, c, d)
x, y = 1, 2
x, y = y, x
print(x, y)
head, *mid, tail = range(5)
print(head, mid, tail)
(p, q), r = "ab", "c"
print(p, q, r)


def f(a, b, c=0, *args, **kwargs):
    return a, b, c, args, sorted(kwargs.items())


nums = [1, 2, 3, 4, 5]
opts = {"k": 1, "z": 2}
print(f(*nums), f(*nums[:2], **opts), f(1, *[2], c=3, **{"w": 0}))
print([*range(3), *"ab", 9], (*[1, 2],), {*[1, 2], *[2, 3]} == {1, 2, 3})
print({**{"a": 1, "b": 2}, **{"b": 3}}, {"c": 4, **{"a": 1}})
for i, (k, v) in enumerate(sorted({"x": 1, "y": 2}.items())):
    print(i, k, v)
try:
    a, b = [1, 2, 3]
except ValueError as e:
    print("ValueError:", e)
try:
    a, b, c = [1, 2]
except ValueError as e:
    print("ValueError:", e)
print(*[1, 2, 3], sep="-")
