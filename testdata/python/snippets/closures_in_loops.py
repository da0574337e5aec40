# Closures created in loops and comprehensions: late binding traps and fixes with default args, functools.partial, and factory functions.
import functools

handlers = {}
for name in ["start", "stop"]:
    handlers[name] = lambda: "handled " + name
print({k: f() for k, f in handlers.items()})
fixed = {name: (lambda n=name: "handled " + n) for name in ["start", "stop"]}
print({k: f() for k, f in fixed.items()})
parts = [functools.partial(pow, 2)(i) for i in range(5)]
print(parts)


def make_multiplier(k):
    return lambda x: x * k


mults = [make_multiplier(k) for k in range(1, 4)]
print([m(10) for m in mults])
acc = []
for i in range(3):
    def record(i=i):
        acc.append(i)
    record()
print(acc)
