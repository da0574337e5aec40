# Re-raising: bare raise, raise e, exception variables cleared after except, nested handlers, sys.exc_info.
import sys


def risky():
    raise ValueError("inner")


try:
    try:
        risky()
    except ValueError:
        print("log and re-raise")
        raise
except ValueError as e:
    print("outer caught", e)

try:
    risky()
except ValueError as err:
    saved = err
print(saved)

try:
    raise KeyError("a")
except KeyError:
    t, v, tb = sys.exc_info()
    print(t.__name__, repr(v), tb is not None)
print(sys.exc_info())

try:
    raise ValueError("first")
except ValueError:
    try:
        raise TypeError("second")
    except TypeError as e:
        print("inner", e, type(e.__context__).__name__)
    print("back in outer", sys.exc_info()[0].__name__)
