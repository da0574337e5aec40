# bytes formatting and conversions: %-format on bytes, bytes.join of encoded strs, hex dumps, splitting binary lines, int to bytes and back.
records = [("id", 1), ("name", "café")]
out = b"".join(b"%s=%s;" % (k.encode(), str(v).encode("utf-8")) for k, v in records)
print(out, out.decode("utf-8"), out.split(b";"), len(out))
data = bytes(range(0, 256, 17))
print(" ".join("%02x" % b for b in data), data.hex(" ", 4) if True else "", data[::-1][:3])
lines = b"a,1\r\nb,2\r\n\r\n".splitlines()
print(lines, [l.split(b",") for l in lines if l])
n = 2 ** 40 + 5
b = n.to_bytes((n.bit_length() + 7) // 8, "big")
print(b, int.from_bytes(b, "big") == n, bytes([0x41]) * 3, bytearray(b"ab").hex(), b"%5.2f|%-4d|%c" % (3.14159, 7, 65))
print(b"abc".center(7, b"*"), b"a b  c".split(), b"ABC".lower(), b"x".zfill(3), b"tEsT".swapcase(), b"a\tb".expandtabs(4))
