# Coroutine-style generators with send: a filter/printer pipeline, priming decorator, and close() ending the chain.
import functools


def coroutine(fn):
    @functools.wraps(fn)
    def start(*a, **k):
        g = fn(*a, **k)
        next(g)
        return g
    return start


@coroutine
def printer(prefix):
    try:
        while True:
            item = yield
            print(prefix, item)
    except GeneratorExit:
        print(prefix, "closed")


@coroutine
def only_even(target):
    try:
        while True:
            x = yield
            if x % 2 == 0:
                target.send(x)
    finally:
        target.close()


sink = printer("even:")
f = only_even(sink)
for i in range(6):
    f.send(i)
f.close()
print("pipeline done")
