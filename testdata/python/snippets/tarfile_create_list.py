# tarfile: creating a .tar.gz of a directory, listing members (names, sizes, types), extracting one member's bytes.
import io
import os
import tarfile
import tempfile

d = tempfile.mkdtemp()
src = os.path.join(d, "model")
os.makedirs(os.path.join(src, "params"))
for name, content in [("__model__", b"program"), ("params/fc_0.w_0", b"\x00" * 64), ("params/fc_0.b_0", b"\x01" * 8)]:
    with open(os.path.join(src, name), "wb") as f:
        f.write(content)
plain = os.path.join(d, "model.tar")
with tarfile.open(plain, "w") as tar:
    tar.add(src, arcname="model")
archive = os.path.join(d, "model.tar.gz")
import gzip
with open(plain, "rb") as f, open(archive, "wb") as out:
    out.write(gzip.compress(f.read()))
with tarfile.open(archive, "r:gz") as tar:
    members = sorted(tar.getmembers(), key=lambda m: m.name)
    for m in members:
        print(m.name, m.size if m.isfile() else "-", m.isdir(), m.isfile())
    print(tar.extractfile("model/__model__").read())
    print(sorted(tar.getnames()))
print(tarfile.is_tarfile(archive), tarfile.is_tarfile(os.path.join(src, "__model__")))
import shutil
shutil.rmtree(d)
