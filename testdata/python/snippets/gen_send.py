# Generator send(), throw(), close(), running averages as coroutines, GeneratorExit.
def averager():
    total, count, avg = 0.0, 0, None
    while True:
        x = yield avg
        if x is None:
            break
        total += x
        count += 1
        avg = total / count
    return count


a = averager()
print(next(a))
for v in [10, 20, 60]:
    print(a.send(v))
try:
    a.send(None)
except StopIteration as e:
    print("finished after", e.value)


def guarded():
    try:
        while True:
            try:
                yield "ok"
            except ValueError as e:
                print("handled", e)
                yield "recovered"
    finally:
        print("cleanup")


g = guarded()
print(next(g))
print(g.throw(ValueError("bad")))
print(next(g))
g.close()
print("closed")
try:
    g.send(1)
except StopIteration:
    print("StopIteration after close")
try:
    averager().send(5)
except TypeError as e:
    print("TypeError")
