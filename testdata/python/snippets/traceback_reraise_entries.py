# A re-raised exception keeps one traceback entry per frame, as CPython's
# RERAISE: after an unmatched except, a finally, a with block, a bare raise.
import sys
import traceback

def f():
    try:
        x = 1
        x.nope()
    finally:
        y = 2


def g():
    try:
        x = 1
        x.nope()
    except KeyError:
        pass


def entries():
    """(function, line) of each entry of the handled exception's traceback."""
    tb = sys.exc_info()[2]
    rows = []
    while tb is not None:
        rows.append((tb.tb_frame.f_code.co_name, tb.tb_lineno))
        tb = tb.tb_next
    return rows


for fn in (f, g):
    try:
        fn()
    except AttributeError:
        print(entries())


class Guard(object):
    def __enter__(self):
        return self

    def __exit__(self, *args):
        return False


def h():
    with Guard():
        x = 1
        x.nope()


try:
    h()
except AttributeError:
    print(entries())


def a():
    try:
        raise ValueError("x")
    except ValueError:
        raise
def b():
    try:
        a()
    except ValueError as e:
        raise KeyError("k") from e
def c():
    try:
        {}["z"]
    except KeyError:
        raise TypeError("t")
for fn in (a, b, c):
    try:
        fn()
    except Exception:
        traceback.print_exc(file=sys.stdout)
class G:
    def __enter__(self): return self
    def __exit__(self, *a): raise RuntimeError("exit")
try:
    with G():
        1/0
except Exception:
    traceback.print_exc(file=sys.stdout)
def gen():
    try:
        yield 1
        raise ValueError("g")
    finally:
        pass
try:
    list(gen())
except Exception:
    traceback.print_exc(file=sys.stdout)
