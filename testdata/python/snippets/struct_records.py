# struct for fixed-size binary records: writing a header and records to a file, reading them back by offset, endianness checks.
import os
import struct
import tempfile

rec = struct.Struct("<I16sf")
d = tempfile.mkdtemp()
path = os.path.join(d, "records.bin")
with open(path, "wb") as f:
    f.write(struct.pack("<4sH", b"RECS", 3))
    for i, name in enumerate(["cat", "dog", "bird"]):
        f.write(rec.pack(i, name.encode(), i * 0.5))
with open(path, "rb") as f:
    magic, n = struct.unpack("<4sH", f.read(6))
    print(magic, n, rec.size)
    for _ in range(n):
        idx, name, score = rec.unpack(f.read(rec.size))
        print(idx, name.rstrip(b"\x00").decode(), score)
    f.seek(6 + rec.size * 2)
    print(rec.unpack(f.read(rec.size))[1].split(b"\0")[0])
print(struct.pack(">H", 1) == struct.pack("!H", 1), struct.unpack("<I", b"\x01\x00\x00\x00")[0], struct.unpack(">I", b"\x01\x00\x00\x00")[0])
os.remove(path)
os.rmdir(d)
