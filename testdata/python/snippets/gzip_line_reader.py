# Streaming a large gzip'd text file line by line (not reading all at once), counting tokens, and reading bytes lines with gzip.open defaults.
import gzip
import os
import tempfile

d = tempfile.mkdtemp()
path = os.path.join(d, "corpus.txt.gz")
lines = ["sentence %d %s" % (i, "word " * (i % 5)) for i in range(1000)]
with open(path, "wb") as f:
    f.write(gzip.compress(("\n".join(lines) + "\n").encode()))
tokens = 0
n = 0
with gzip.open(path, "rt") as f:
    for line in f:
        tokens += len(line.split())
        n += 1
print(n, tokens)
with gzip.open(path) as f:
    first = f.readline()
    f.seek(0)
    print(first, f.read(8), type(f).__name__)
os.remove(path)
os.rmdir(d)
