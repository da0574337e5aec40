# A bare raise in an except block and an exception passing an except clause that does not match: CPython shows each frame once.
def inner():
    raise ValueError("from inner")


def middle():
    try:
        inner()
    except ValueError:
        print("logged, re-raising")
        raise


def outer():
    try:
        middle()
    except KeyError:
        print("not reached")
    finally:
        print("finally runs")


outer()
