# -*- coding: utf-8 -*-
# A 2018 Chinese text-classification script's data file, saved on Windows
# in GBK: read with open(encoding=...), codecs.open and bytes.decode, and
# the errors a wrong encoding gives.
import codecs
import os
import tempfile

path = os.path.join(tempfile.mkdtemp(), "train_gbk.txt")
text = u"中文训练数据,标签\n第二行:0.5\n"
with open(path, "wb") as f:
    f.write(text.encode("gbk"))
print(repr(open(path, encoding="gbk").read()))
for line in open(path, encoding="gb2312"):
    print(line.strip().split(","))
with codecs.open(path, "r", "gbk") as f:
    print(f.readlines())
raw = open(path, "rb").read()
print(raw[:6], raw.decode("gbk")[:2], raw.decode("GB18030")[:2], raw.decode("cp936")[-4:])
print(u"繁體".encode("big5"), u"日本語".encode("shift_jis"), u"한국어".encode("euc-kr"))
print(codecs.lookup("GBK").name, codecs.lookup("cp936").name, codecs.lookup("gb2312").name)
dec = codecs.getincrementaldecoder("gbk")()
print(repr(dec.decode(raw[:3])), repr(dec.decode(raw[3:5])), repr(dec.decode(raw[5:], final=True)))
for bad in [b"\xd6\xd0\xff\xff", b"ab\xd6"]:
    try:
        bad.decode("gbk")
    except UnicodeDecodeError as e:
        print(e.encoding, e.start, e.end, e.reason, e)
    print(bad.decode("gbk", "replace"), bad.decode("gbk", "ignore"))
try:
    u"a\u20ac\U0001f600".encode("gbk")
except UnicodeEncodeError as e:
    print(e)
print(u"a\U0001f600b".encode("gbk", "replace"), u"a\U0001f600b".encode("gbk", "xmlcharrefreplace"))
with open(path, "w", encoding="gbk") as f:
    f.write(u"写回\n")
print(open(path, "rb").read())
try:
    open(path, encoding="utf-8").read()
except UnicodeDecodeError as e:
    print(e)
open(path, "wb").write(b"\xd6\xd0\xff\n")
open(path, encoding="gbk").read()
