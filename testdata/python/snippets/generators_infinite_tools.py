# Infinite generators combined lazily: count with map/filter/zip, takewhile on primes, first-n helpers, enumerate over infinite streams.
import itertools


def primes():
    found = []
    for n in itertools.count(2):
        if all(n % p for p in found if p * p <= n):
            found.append(n)
            yield n


def take(n, it):
    return list(itertools.islice(it, n))


print(take(10, primes()), list(itertools.takewhile(lambda p: p < 30, primes())))
evens = filter(lambda x: x % 2 == 0, itertools.count())
squares = map(lambda x: x * x, evens)
print(take(5, squares), take(3, zip(itertools.count(1), "abc", itertools.cycle([True, False]))))
for i, p in enumerate(primes()):
    if i == 4:
        print("fifth prime", p)
        break
stream = (x * 0.5 for x in itertools.count())
print(next(stream), next(stream), take(2, stream))
