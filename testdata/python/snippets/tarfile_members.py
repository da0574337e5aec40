# tarfile details: TarInfo of directories and files, getmember errors, extractfile of a directory, reading members from a gzip'd stream in memory.
import gzip
import io
import tarfile

buf = io.BytesIO()
with tarfile.open(fileobj=buf, mode="w") as tar:
    d = tarfile.TarInfo("pkg")
    d.type = tarfile.DIRTYPE
    d.mode = 0o755
    tar.addfile(d)
    data = b"print('hi')\n"
    f = tarfile.TarInfo("pkg/mod.py")
    f.size = len(data)
    f.mode = 0o644
    tar.addfile(f, io.BytesIO(data))
gz = gzip.compress(buf.getvalue())
with tarfile.open(fileobj=io.BytesIO(gz), mode="r:gz") as tar:
    for m in tar.getmembers():
        print(m.name, m.isdir(), m.isfile(), oct(m.mode), m.size)
    print(tar.extractfile("pkg/mod.py").read(), tar.extractfile("pkg"))
    try:
        tar.getmember("missing")
    except KeyError as e:
        print("KeyError", e)
with tarfile.open(fileobj=io.BytesIO(gz)) as tar:
    print(tar.getnames())
