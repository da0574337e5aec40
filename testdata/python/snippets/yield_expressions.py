# yield as an expression: values sent in, yield inside expressions, generator returning via return value, yield in try/finally with send.
def accumulate():
    total = 0
    while True:
        received = yield total
        if received is None:
            return total
        total += received


g = accumulate()
print(next(g), g.send(5), g.send(10))
try:
    g.send(None)
except StopIteration as e:
    print("returned", e.value)


def echo():
    x = yield "ready"
    while True:
        x = yield "got %s" % (x,)


e = echo()
print(next(e), e.send(1), e.send("two"), next(e))


def gen_sum():
    a = yield
    b = yield
    yield a + b


s = gen_sum()
next(s)
s.send(3)
print(s.send(4))
