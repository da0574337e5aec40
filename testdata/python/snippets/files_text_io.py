# open() in a temp dir: write/read text, append mode, readline/readlines, iteration, seek/tell, 'x' mode, encoding, newline translation.
import os
import tempfile

d = tempfile.mkdtemp()
p = os.path.join(d, "log.txt")
with open(p, "w") as f:
    print(f.write("epoch 1\n"), f.mode, f.name == p, f.closed)
    f.writelines(["epoch 2\n", "epoch 3\n"])
    print("epoch 4", file=f)
with open(p, "a") as f:
    f.write("appended\n")
with open(p) as f:
    print(repr(f.readline()), f.readlines())
with open(p, "r") as f:
    for i, line in enumerate(f):
        print(i, line.rstrip())
with open(p) as f:
    f.seek(6)
    print(repr(f.read(3)), f.tell())
    print(repr(f.read()))
try:
    open(p, "x")
except FileExistsError:
    print("FileExistsError")
with open(p, "w", encoding="utf-8") as f:
    f.write("crlf\r\nand cr\rend")
with open(p, newline="") as f:
    print(repr(f.read()))
with open(p, "rb") as f:
    print(f.read())
os.remove(p)
os.rmdir(d)
