# try/finally with control flow: continue and break inside finally, return in loops with finally, exception replaced in finally, nested finally order.
def loop_with_finally():
    out = []
    for i in range(4):
        try:
            if i == 2:
                raise ValueError(i)
            out.append(i)
        except ValueError:
            out.append("err")
            continue
        finally:
            out.append("f%d" % i)
    return out


print(loop_with_finally())


def break_in_finally():
    for i in range(5):
        try:
            raise KeyError(i)
        finally:
            break
    return "swallowed by break, i=%d" % i


print(break_in_finally())


def replaced():
    try:
        raise ValueError("first")
    finally:
        try:
            raise TypeError("second")
        except TypeError as e:
            print("inner handled", e)


try:
    replaced()
except ValueError as e:
    print("outer got", e)


def nested():
    try:
        try:
            return "value"
        finally:
            print("inner finally")
    finally:
        print("outer finally")


print(nested())
