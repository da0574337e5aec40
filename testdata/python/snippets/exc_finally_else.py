# try/except/else/finally ordering, finally overriding return, exceptions in loops with continue/break.
def f(x):
    try:
        print("try", x)
        r = 10 / x
    except ZeroDivisionError:
        print("except")
        return "error"
    else:
        print("else")
        return r
    finally:
        print("finally")


print(f(2))
print(f(0))


def g():
    try:
        return "try"
    finally:
        return "finally wins"


print(g())


def h():
    for i in range(4):
        try:
            if i == 1:
                continue
            if i == 3:
                break
            print("body", i)
        finally:
            print("finally", i)
    return "done"


print(h())
try:
    pass
except Exception:
    print("never")
else:
    print("no exception")
