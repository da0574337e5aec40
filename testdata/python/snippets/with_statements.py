# with statements: file objects, multiple managers, parenthesized managers, exceptions propagating, contextlib managers.
import contextlib
import os
import tempfile


@contextlib.contextmanager
def tag(name):
    print("<%s>" % name)
    try:
        yield name.upper()
    finally:
        print("</%s>" % name)


with tag("a") as A, tag("b") as B:
    print(A, B)
with (
    tag("x") as X,
    tag("y"),
):
    print("parenthesized", X)
try:
    with tag("err"):
        raise ValueError("inside")
except ValueError as e:
    print("propagated", e)
d = tempfile.mkdtemp()
path = os.path.join(d, "f.txt")
with open(path, "w") as f:
    f.write("data\n")
print(f.closed)
with open(path) as f:
    print(f.read(), end="")
with contextlib.suppress(FileNotFoundError):
    os.remove(os.path.join(d, "missing"))
    print("not reached")
os.remove(path)
os.rmdir(d)
print("done")
