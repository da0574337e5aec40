# A label file written on Windows (CRLF) and an old Mac one (CR), read as
# 2018 readers did: `for line in open(...)`, `line.split('\t')` without a
# strip, `readlines`, `read`. Universal newlines turn each into '\n'.
import io
import os
import tempfile

d = tempfile.mkdtemp()
path = os.path.join(d, "train_list.txt")
with open(path, "wb") as f:
    f.write(b"img/0.jpg\t3\r\nimg/1.jpg\t7\r\nimg/2.jpg\t1\rimg/3.jpg\t0\nlast\r")

for line in open(path):
    name, label = (line.split("\t") + [""])[:2]
    print(repr(name), repr(label))
with open(path) as f:
    print(f.readlines())
with open(path) as f:
    print(repr(f.read()), f.newlines)
with open(path, newline="") as f:
    print(f.readlines())
with open(path, newline="\r\n") as f:
    print(f.readlines())
with open(path, newline="\n") as f:
    print(f.readlines())
with open(path) as f:
    first = f.readline()
    pos = f.tell()
    rest = f.read()
    f.seek(pos)
    print(repr(first), repr(rest), f.read() == rest, repr(f.readline(3)))

# A CRLF split across the text layer's chunks: the '\r' ends one chunk.
big = os.path.join(d, "big.txt")
with open(big, "wb") as f:
    for i in range(5000):
        f.write(("row %d,%s\r\n" % (i, "x" * (i % 13))).encode())
lines = open(big).read().split("\n")
print(len(lines), all(not l.endswith("\r") for l in lines), lines[4999])
print(sum(1 for l in open(big) if l.endswith("\r\n")), sum(1 for l in open(big, newline="") if l.endswith("\r\n")))

# The decoder itself, as io exposes it.
dec = io.IncrementalNewlineDecoder(None, translate=True)
print(repr(dec.decode("a\r")), dec.getstate(), repr(dec.decode("\nb\rc")), repr(dec.decode("", final=True)), dec.newlines)
dec.reset()
print(dec.newlines, dec.getstate())
print(repr(io.StringIO("x\r\ny").read()), repr(io.TextIOWrapper(io.BytesIO(b"p\r\nq\rr")).read()))
