# yield from delegates send() and throw() to the subgenerator and returns its value; close() propagates.
def sub():
    total = 0
    try:
        while True:
            x = yield total
            if x is None:
                break
            total += x
    except ValueError:
        print("sub caught ValueError")
        yield "after throw"
    return total


def outer():
    result = yield from sub()
    print("sub returned", result)
    yield "outer continues"


g = outer()
print(next(g), g.send(3), g.send(4))
print(g.send(None))
h = outer()
next(h)
print(h.throw(ValueError))
h.close()
print("closed")
