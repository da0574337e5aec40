# Exceptions crossing generator boundaries: raised inside a generator propagate to the consumer; the generator is finished afterwards; exceptions in genexprs.
def risky():
    yield 1
    raise ValueError("inside generator")
    yield 2


g = risky()
print(next(g))
try:
    next(g)
except ValueError as e:
    print("consumer caught", e)
print(next(g, "finished"))
try:
    list(1 / x for x in [1, 0])
except ZeroDivisionError as e:
    print("genexpr raised", e)


def guarded(items):
    for it in items:
        try:
            yield int(it)
        except ValueError:
            yield None


print(list(guarded(["1", "x", "3"])))
