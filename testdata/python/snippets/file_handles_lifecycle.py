# File objects: closed attribute, operations on closed files, context manager closing on error, iterating lines lazily, fileno type, readable/writable.
import os
import tempfile

d = tempfile.mkdtemp()
p = os.path.join(d, "f.txt")
f = open(p, "w")
print(f.closed, f.writable(), f.readable(), f.seekable(), type(f.fileno()).__name__, f.encoding.lower().replace("-", ""))
f.write("one\ntwo\nthree\n")
f.close()
print(f.closed)
try:
    f.write("x")
except ValueError:
    print("ValueError on closed file")
try:
    with open(p) as g:
        first = next(g)
        raise RuntimeError("stop reading")
except RuntimeError:
    print(repr(first), g.closed)
with open(p) as g:
    it = iter(g)
    print(next(it).strip(), g.readline().strip(), [l.strip() for l in it])
with open(p, "rb", buffering=0) as raw:
    print(type(raw).__name__, raw.read(3))
with open(p, "rb") as buffered:
    print(type(buffered).__name__, buffered.peek(1)[:1])
os.remove(p)
os.rmdir(d)
