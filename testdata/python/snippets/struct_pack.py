# struct: pack/unpack with byte orders and sizes, calcsize, padding/alignment, iter_unpack, pack_into/unpack_from, Struct objects, errors.
import struct

print(struct.pack("<i", 1), struct.pack(">i", 1), struct.pack("<h", -2), struct.pack("<Q", 2 ** 63), struct.pack("<?", True))
print(struct.pack("<f", 0.1), struct.pack("<d", 0.1), struct.unpack("<f", struct.pack("<f", 0.1)), struct.pack("<e", 1.5))
print(struct.calcsize("i"), struct.calcsize("<i"), struct.calcsize("@bi"), struct.calcsize("=bi"), struct.calcsize("<3s2x4d"))
print(struct.pack("<3sB", b"abcdef", 255), struct.unpack("<3sB", b"xyz\x07"), struct.pack("5p", b"ab"))
print(list(struct.iter_unpack("<hh", bytes(range(8)))))
buf = bytearray(8)
struct.pack_into("<I", buf, 2, 0xDEADBEEF)
print(buf, struct.unpack_from("<H", buf, 4))
s = struct.Struct("<if")
print(s.size, s.format, s.pack(7, 2.5), s.unpack(s.pack(7, 2.5)))
for fmt, vals in [("<I", (-1,)), ("<i", ("x",)), ("<ii", (1,))]:
    try:
        struct.pack(fmt, *vals)
    except struct.error as e:
        print("struct.error:", e)
try:
    struct.unpack("<i", b"\x00")
except struct.error as e:
    print("struct.error:", e)
