# The messages of common built-in exceptions, as scripts print them with print(e) or see them in tracebacks.
import base64
import datetime
import os
import struct


class Plain:
    pass


class A:
    pass


class B(A):
    pass


class BadBool:
    def __bool__(self):
        return 1


def attempt(thunk):
    try:
        thunk()
    except Exception as e:
        print("%s: %s" % (type(e).__name__, e))


attempt(lambda: Plain() + 1)
attempt(lambda: 1 + "a")
attempt(lambda: "b" * "c")


def raise_str():
    raise "a string"


attempt(raise_str)
attempt(lambda: [1, 2][5])
attempt(lambda: (1, 2)[5])
attempt(lambda: "ab"[5])
attempt(lambda: bool(BadBool()))
attempt(lambda: type("C", (A, B), {}))
attempt(lambda: ",".join([1, 2]))
attempt(lambda: sorted([1, "a", 2]))
attempt(lambda: (1, 2).__setitem__(0, 1))
attempt(lambda: b"\xff".decode("utf-8"))
attempt(lambda: open("/nonexistent/dir/file.txt"))
attempt(lambda: os.listdir("/nonexistent/dir"))
attempt(lambda: os.makedirs("/proc/nonexistent/dir"))
print(str(OSError(2, "No such file")), OSError(2, "No such file").strerror)
attempt(lambda: base64.b64decode("abc"))
attempt(lambda: struct.pack("<b", 200))
attempt(lambda: datetime.date(2019, 2, 29))
attempt(lambda: datetime.datetime(2019, 1, 1) < datetime.datetime(2019, 1, 1, tzinfo=datetime.timezone.utc))
attempt(lambda: int("12a"))
attempt(lambda: {}["k"])
attempt(lambda: None.attr)
attempt(lambda: len(5))
attempt(lambda: float("x"))
for source in ["print 'x'", "if True\n    pass", "x = [1, 2", "x = 'unterminated", "print(1))", "def f():\nreturn 1"]:
    attempt(lambda: compile(source, "<snippet>", "exec"))
attempt(lambda: int(float("inf")))
attempt(lambda: int(float("nan")))
closed = __import__("io").StringIO()
closed.close()
attempt(lambda: closed.read())
