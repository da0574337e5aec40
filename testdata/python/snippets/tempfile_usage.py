# tempfile: TemporaryDirectory context, NamedTemporaryFile (delete, mode), mkstemp/mkdtemp with prefix/suffix, TemporaryFile, cleanup.
import os
import tempfile

with tempfile.TemporaryDirectory(prefix="run_") as tmp:
    print(os.path.isdir(tmp), os.path.basename(tmp).startswith("run_"))
    path = os.path.join(tmp, "x.txt")
    with open(path, "w") as f:
        f.write("x")
    print(os.listdir(tmp))
print(os.path.exists(tmp))
with tempfile.NamedTemporaryFile("w+", suffix=".json", delete=True) as f:
    f.write('{"a": 1}')
    f.flush()
    f.seek(0)
    print(f.read(), f.name.endswith(".json"), os.path.exists(f.name))
print(os.path.exists(f.name))
fd, p = tempfile.mkstemp(suffix=".bin", prefix="w_")
os.write(fd, b"abc")
os.close(fd)
print(os.path.basename(p).startswith("w_"), p.endswith(".bin"), os.path.getsize(p))
os.remove(p)
with tempfile.TemporaryFile() as t:
    t.write(b"temp bytes")
    t.seek(0)
    print(t.read())
print(os.path.isdir(tempfile.gettempdir()), isinstance(tempfile.gettempdir(), str))
td = tempfile.TemporaryDirectory()
name = td.name
td.cleanup()
print(os.path.exists(name))
