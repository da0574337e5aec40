# gzip: reading a gzip'd text file line by line (a data set reader) with gzip.open 'rt' and an encoding; the file is made with gzip.compress.
import gzip
import os
import tempfile

d = tempfile.mkdtemp()
path = os.path.join(d, "train.txt.gz")
text = "".join("%d\t%s\t%.2f\n" % (i, "sample_é" + str(i), i / 3) for i in range(5))
with open(path, "wb") as f:
    f.write(gzip.compress(text.encode("utf-8")))
with gzip.open(path, "rt", encoding="utf-8") as f:
    for line in f:
        idx, name, value = line.rstrip("\n").split("\t")
        print(int(idx), name, float(value))
with gzip.open(path, "rb") as f:
    raw = f.read()
print(len(raw), raw[:10], raw.count(b"\n"))
with gzip.open(path) as f:
    print(f.readline(), f.read(4))
with open(path, "rb") as f:
    print(f.read(2) == b"\x1f\x8b")
os.remove(path)
os.rmdir(d)
