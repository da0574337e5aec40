# Reading a gzip'd binary file in the MNIST idx format with struct, as 2018 dataset readers do.
import gzip
import os
import struct
import tempfile

d = tempfile.mkdtemp()
path = os.path.join(d, "images-idx3-ubyte.gz")
n, rows, cols = 3, 2, 2
with open(path, "wb") as f:
    f.write(gzip.compress(struct.pack(">IIII", 2051, n, rows, cols) + bytes(range(n * rows * cols))))
with gzip.GzipFile(path, "rb") as f:
    magic, count, r, c = struct.unpack(">IIII", f.read(16))
    print(magic, count, r, c)
    for i in range(count):
        pixels = f.read(r * c)
        print([p / 255.0 * 2 - 1 for p in pixels])
os.remove(path)
os.rmdir(d)
