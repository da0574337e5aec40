# Binary file I/O: 'wb'/'rb'/'r+b', read(n), seek from end, tell, readinto, file iteration of bytes lines, os.path.getsize.
import os
import struct
import tempfile

d = tempfile.mkdtemp()
p = os.path.join(d, "params.bin")
with open(p, "wb") as f:
    f.write(struct.pack("<4f", 0.5, -1.25, 3.0, 1e-3))
    f.write(b"\nline2\nline3")
print(os.path.getsize(p))
with open(p, "rb") as f:
    print(struct.unpack("<4f", f.read(16)))
    print(f.tell(), f.read(1), f.seek(-5, 2), f.read())
with open(p, "r+b") as f:
    f.seek(16)
    f.write(b"X")
with open(p, "rb") as f:
    print(list(f)[1:])
    f.seek(0)
    buf = bytearray(4)
    print(f.readinto(buf), bytes(buf))
with open(p, "ab") as f:
    f.write(b"!")
with open(p, "rb") as f:
    data = f.read()
print(len(data), data[-3:])
os.remove(p)
os.rmdir(d)
