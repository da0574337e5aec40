# zlib: compress/decompress at levels, crc32/adler32, decompressobj streaming, and an error for corrupt data.
import zlib

data = b"abcabcabc" * 50 + bytes(range(256))
for level in [0, 1, 6, 9]:
    c = zlib.compress(data, level)
    print(level, zlib.decompress(c) == data, c[:2])
print(zlib.crc32(data), zlib.adler32(data), zlib.crc32(b"a", zlib.crc32(b"b")))
d = zlib.decompressobj()
c = zlib.compress(data)
out = d.decompress(c[:20]) + d.decompress(c[20:]) + d.flush()
print(out == data, d.eof)
try:
    zlib.decompress(b"corrupt data")
except zlib.error as e:
    print("zlib.error")
print(zlib.MAX_WBITS, zlib.DEFLATED, len(zlib.compress(b"")) > 0)
