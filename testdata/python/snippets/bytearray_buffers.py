# bytearray as a mutable buffer: extend/append, += , slicing deletion, find/replace, decode of parts, bytes conversions, comparisons.
buf = bytearray()
for i in range(5):
    buf += b"%d," % i
buf.extend(b"end")
print(buf, len(buf), buf.count(b","), buf.find(b"end"), buf.rfind(b","))
del buf[:2]
buf[-3:] = b"END"
print(buf, buf.replace(b",", b";"), buf.upper(), buf.split(b","), bytes(buf[:3]).decode())
buf.clear()
print(buf, bytearray(b"abc") == b"abc", bytearray(b"b") > b"a", bytearray.fromhex("01 ff"), bytearray(3))
b2 = bytearray(b"hello")
b2.remove(ord("l"))
b2.insert(0, ord("H"))
print(b2, b2.pop(), b2.index(b"e"), b2.isalpha(), b2.strip(b"H"))
