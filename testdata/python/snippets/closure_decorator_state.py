# Decorators with state: call counters via function attributes, memoize with a closure dict, rate-limit style once(), class-based decorators.
import functools


def counted(fn):
    @functools.wraps(fn)
    def wrapper(*a, **k):
        wrapper.calls += 1
        return fn(*a, **k)
    wrapper.calls = 0
    return wrapper


def memoize(fn):
    cache = {}

    def wrapper(n):
        if n not in cache:
            cache[n] = fn(n)
        return cache[n]
    wrapper.cache = cache
    return wrapper


def once(fn):
    done = False
    result = None

    def wrapper(*a):
        nonlocal done, result
        if not done:
            result, done = fn(*a), True
        return result
    return wrapper


class Timer:
    def __init__(self, fn):
        functools.update_wrapper(self, fn)
        self.fn = fn
        self.runs = []

    def __call__(self, *a):
        self.runs.append(a)
        return self.fn(*a)


@counted
def hello(name):
    return "hi " + name


@memoize
def slow_square(n):
    print("computing", n)
    return n * n


@once
def init(x):
    print("init with", x)
    return x * 10


@Timer
def add(a, b):
    return a + b


print(hello("a"), hello("b"), hello.calls, hello.__name__)
print(slow_square(4), slow_square(4), sorted(slow_square.cache.items()))
print(init(1), init(2), add(1, 2), add(3, 4), add.runs, add.__name__)
