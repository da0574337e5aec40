# Text handling gaps: universal newlines when reading text files, csv fields with quoted newlines and skipinitialspace,
# str width with precision in format specs, Unicode case mapping (ß, digraphs) and non-ASCII digits.
import csv
import io
import os
import tempfile

d = tempfile.mkdtemp()
p = os.path.join(d, "windows.txt")
with open(p, "wb") as f:
    f.write(b"id,label\r\n1,cat\r\nold mac\rline\n")
with open(p) as f:
    print(repr(f.read()))
os.remove(p)
os.rmdir(d)
print(repr(io.TextIOWrapper(io.BytesIO(b"x\r\ny"), encoding="utf-8").read()))
print(list(csv.reader(io.StringIO('1,"multi\nline"\r\n', newline=""))))
print(list(csv.reader(["  1,2 ,3 "], skipinitialspace=True)))
print(repr("{:>6.2}".format("xyz")), repr(f"{'abc':^7.1}"), repr("{:<10.3}".format("abcdef")))
# No presentation type with a precision: an integral float keeps its ".0"
# (the 2018 book printed "Acc {1:2.2}" of an accuracy of 0.0).
print(repr("{0:2.2}".format(0.0)), repr("{:.3}".format(1.0)), repr("{:10.3}".format(2.0)))
for w in ["ß straße", "ǅemal", "ﬁne"]:
    print(w.capitalize(), w.swapcase(), w.title())
print("٣".isdigit(), "३".isdigit())
try:
    print(int("٣"), float("३.५"))
except ValueError:
    print("ValueError")
