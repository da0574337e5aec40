# Generator expressions: laziness, single use, as function arguments, and generator function state.
import inspect

gen = (x * 2 for x in range(5))
print(sum(gen), sum(gen))
print(max(len(w) for w in ["a", "bbb", "cc"]))
print(list(x for x in range(10) if x % 3 == 0))
print(sorted((y for y in "banana"), reverse=True))
print(",".join(str(i) for i in range(4)))


def gen_fn():
    yield 1
    yield 2


g = gen_fn()
next(g)
print(inspect.getgeneratorstate(g))
print(inspect.isgeneratorfunction(gen_fn), inspect.isgenerator(g))
nested = ((i, j) for i in range(3) for j in range(i))
print(list(nested))
print(any(x > 3 for x in [1, 5, 2]), all(x for x in []))
