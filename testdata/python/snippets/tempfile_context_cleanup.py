# tempfile cleanup guarantees: TemporaryDirectory removed even after an exception, NamedTemporaryFile closed and deleted on exit, nested temp dirs.
import os
import tempfile

try:
    with tempfile.TemporaryDirectory() as tmp:
        saved = tmp
        os.makedirs(os.path.join(tmp, "a", "b"))
        open(os.path.join(tmp, "a", "b", "f"), "w").close()
        raise RuntimeError("fail inside")
except RuntimeError as e:
    print("caught", e, os.path.exists(saved))
with tempfile.NamedTemporaryFile() as f:
    f.write(b"abc")
    f.flush()
    name = f.name
    print(os.path.getsize(name))
print(os.path.exists(name), f.closed)
