# Generators are lazy: infinite generators consumed with itertools.islice, next(), takewhile.
import itertools


def naturals(start=0):
    n = start
    while True:
        print("  produce", n)
        yield n
        n += 1


g = naturals()
print(type(g).__name__)
print(next(g), next(g))
print(list(itertools.islice(naturals(10), 3)))
print(list(itertools.islice(naturals(), 2, 8, 3)))


def fib():
    a, b = 0, 1
    while True:
        yield a
        a, b = b, a + b


print(list(itertools.islice(fib(), 15)))
print(list(itertools.takewhile(lambda v: v < 100, fib())))
print(next(x for x in fib() if x > 1000))
squares = (n * n for n in itertools.count(1))
print([next(squares) for _ in range(5)])
