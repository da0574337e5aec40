# functools.lru_cache / cache: hits and misses, cache_info, maxsize eviction, cache_clear, typed caches.
import functools

calls = []


@functools.lru_cache(maxsize=None)
def fib(n):
    calls.append(n)
    return n if n < 2 else fib(n - 1) + fib(n - 2)


print(fib(30), len(calls), fib.cache_info())


@functools.lru_cache(maxsize=2)
def sq(x):
    print("computing", x)
    return x * x


for v in [1, 2, 1, 3, 2, 1]:
    sq(v)
print(sq.cache_info())
sq.cache_clear()
print(sq.cache_info())


@functools.cache
def tri(n):
    return n + tri(n - 1) if n else 0


print(tri(100), tri.cache_info().currsize)


@functools.lru_cache(typed=True)
def kind(x):
    print("miss", repr(x))
    return type(x).__name__


print(kind(1), kind(1.0), kind(1))
