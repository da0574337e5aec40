# tempfile extras: SpooledTemporaryFile in text mode, NamedTemporaryFile(delete=False) removed by hand, mkdtemp in a given dir, tempdir prefix.
import os
import tempfile

with tempfile.SpooledTemporaryFile(max_size=10, mode="w+") as s:
    s.write("short")
    s.seek(0)
    print(s.read())
f = tempfile.NamedTemporaryFile("w", delete=False, suffix=".txt")
f.write("kept")
f.close()
with open(f.name) as g:
    print(g.read(), os.path.exists(f.name))
os.unlink(f.name)
print(os.path.exists(f.name))
base = tempfile.mkdtemp()
inner = tempfile.mkdtemp(dir=base, prefix="child_")
print(os.path.dirname(inner) == base, os.path.basename(inner).startswith("child_"))
os.rmdir(inner)
os.rmdir(base)
