# Nested try blocks, exceptions raised in except and finally, return in try with finally side effects, exception in generator consumer.
def f():
    log = []
    try:
        try:
            log.append("inner try")
            raise ValueError("v")
        except ValueError:
            log.append("inner except")
            raise KeyError("k")
        finally:
            log.append("inner finally")
    except KeyError as e:
        log.append("outer except %r" % e)
    finally:
        log.append("outer finally")
    return log


print(f())


def g():
    try:
        raise ValueError("lost")
    finally:
        return "finally swallowed the exception"


print(g())


def counter():
    i = 0
    try:
        while True:
            yield i
            i += 1
    finally:
        print("generator cleanup at", i)


c = counter()
for v in c:
    if v == 2:
        c.close()
print("after close")
try:
    raise TypeError
except TypeError as e:
    print(repr(e), e.args)
try:
    raise ValueError
except ValueError as e:
    print(type(e).__name__, str(e) == "")
