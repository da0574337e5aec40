# numpy's text-mode fromstring, as 2018 readers parsed number lists
# (word2vec's Huffman path table, CSV-ish feature lines).
import numpy as np

def show(s, **kw):
    try:
        a = np.fromstring(s, **kw)
        print(repr(s), repr(a), a.dtype)
    except ValueError as e:
        print(repr(s), "ValueError:", e)

show("3 1 0", dtype=int, sep=" ")
show("0 1 1\n", dtype=float, sep=" ")
show("  7\t8\n 9 ", dtype=np.float32, sep=" ")
show("1, 2,3", dtype=np.int32, sep=",")
show(" 1 ,2 ", sep=",")
show("1,2,", sep=",")
show("1,2\n", dtype=np.int64, sep=",")
show("1::2", sep="::")
show("1 :: 2", sep="::")
show("inf nan -0 1e3 +2.5", dtype=float, sep=" ")
show("+5 -3 12345678901234567", dtype=np.int64, sep=" ")
show("3 1 0", dtype=np.uint8, sep=" ")
show("2 0 1", dtype=bool, sep=" ")
show("", dtype=int, sep=" ")
show("1 2 3", dtype=int, sep=" ", count=2)
show(b"4 5 6", dtype=np.int32, sep=" ")
# what numpy 2 refuses
show("1 2 x", dtype=int, sep=" ")
show("1.5 2", dtype=int, sep=" ")
show("1,2,,3", sep=",")
show("1 2", sep=",")
show("0x10", dtype=int, sep=" ")
show("1_0", sep=" ")
show("abcd", dtype=np.uint8, sep="")
# a word2vec-style table: one path per line
lines = ["5 3 1", "2 0", "7"]
paths = [np.fromstring(l, dtype=int, sep=" ") for l in lines]
print([p.tolist() for p in paths], sum(len(p) for p in paths))
