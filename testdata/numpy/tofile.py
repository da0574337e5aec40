# ndarray.tofile: raw bytes after a header (as the 2018 book's conll05
# embedding file was read back with np.fromfile), to a path, and as text.
import os
import tempfile
import numpy as np

d = tempfile.mkdtemp()
path = os.path.join(d, 'emb.bin')
a = np.arange(6, dtype='float32').reshape(2, 3)
with open(path, 'wb') as f:
    f.write(b'\0' * 16)
    a.tofile(f)
with open(path, 'rb') as f:
    f.read(16)
    b = np.fromfile(f, dtype=np.float32).reshape(2, 3)
print(b.tolist(), os.path.getsize(path))
p2 = os.path.join(d, 'ids.bin')
np.array([1, 2, 3], dtype='int64').tofile(p2)
print(np.fromfile(p2, dtype='int64').tolist(), os.path.getsize(p2))
p3 = os.path.join(d, 'ids.txt')
np.array([1.5, 2.25]).tofile(p3, sep=',')
print(open(p3).read(), np.fromfile(p3, sep=',').tolist())
np.array([1, 2]).tofile(p3, sep=' ', format='%03d')
print(open(p3).read())
