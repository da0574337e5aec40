# yield from: delegation, return values of subgenerators, flattening recursion.
def inner(n):
    for i in range(n):
        yield i
    return "inner done %d" % n


def outer():
    r = yield from inner(2)
    print("got", r)
    r2 = yield from inner(3)
    print("got", r2)
    yield from "ab"
    return "outer done"


g = outer()
for v in g:
    print("value", v)


def flatten(x):
    if isinstance(x, list):
        for item in x:
            yield from flatten(item)
    else:
        yield x


print(list(flatten([1, [2, [3, [4, 5]], 6], [[7]]])))
try:
    g2 = outer()
    while True:
        next(g2)
except StopIteration as e:
    print("StopIteration value:", e.value)
