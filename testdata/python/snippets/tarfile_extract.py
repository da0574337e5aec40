# tarfile: building an archive in memory with addfile/TarInfo, extracting all into a temp dir, reading a data set member by member.
import io
import os
import tarfile
import tempfile

buf = io.BytesIO()
with tarfile.open(fileobj=buf, mode="w") as tar:
    for i in range(3):
        payload = ("line %d\n" % i * (i + 1)).encode()
        info = tarfile.TarInfo(name="data/part-%05d" % i)
        info.size = len(payload)
        info.mtime = 1500000000
        tar.addfile(info, io.BytesIO(payload))
print(len(buf.getvalue()) % 512 == 0)
buf.seek(0)
d = tempfile.mkdtemp()
with tarfile.open(fileobj=buf, mode="r") as tar:
    for m in tar:
        print(m.name, m.size, m.mtime)
    tar.extractall(d)
for name in sorted(os.listdir(os.path.join(d, "data"))):
    with open(os.path.join(d, "data", name)) as f:
        print(name, f.read().splitlines())
import shutil
shutil.rmtree(d)
