# Iterator protocol details: iter() of iterators returns itself, exhausted iterators, iterating dict views, zip stops at shortest, StopIteration in generators becomes RuntimeError.
lst = [1, 2, 3]
it = iter(lst)
print(iter(it) is it, next(it), list(it), list(it), next(it, "empty"))
d = {"a": 1, "b": 2}
ki = iter(d)
print(next(ki), list(d.values()), list(d.items()), list(zip(d, d.values())))
z = zip([1, 2, 3], iter([4, 5]))
print(list(z))


def bad():
    yield 1
    raise StopIteration


try:
    list(bad())
except RuntimeError as e:
    print("RuntimeError:", e)
r = reversed([1, 2, 3])
print(next(r), list(r), hasattr(r, "__next__"), type(iter(range(3))).__name__)
