# bytes and bytearray: literals, indexing gives ints, methods, hex/fromhex, join, mutation, decode errors.
b = b"Hello, World"
print(b, b[0], b[-1], b[:5], list(b[:3]), len(b), b"W" in b, 111 in b)
print(b.lower(), b.upper(), b.split(b", "), b.replace(b"l", b"L", 2), b.find(b"o"), b.count(b"l"))
print(b.hex(), bytes.fromhex("de ad be ef"), b.startswith(b"Hell"), b.strip(b"Hd"), b"-".join([b"a", b"b"]))
print(bytes(5), bytes([65, 66, 67]), bytes(range(3)), bytes("é", "utf-8"), b"\x00\xff".hex(":"))
ba = bytearray(b"abc")
ba.append(100)
ba.extend(b"ef")
ba[0] = 65
ba.insert(1, 66)
print(ba, ba.pop(), ba, len(ba), bytes(ba), ba.decode())
ba.reverse()
print(ba, ba * 2, ba + b"!", bytearray(3), ba.find(b"c"))
print(b"abc" < b"abd", b"a" * 3, b"x" == bytearray(b"x"), repr(b"'\"\n\t\x7f"), b"\\".decode())
print(b"caf\xc3\xa9".decode("utf-8"), b"caf\xe9".decode("latin-1"), b"\xff".decode("utf-8", "replace"), b"\xff".decode("ascii", "ignore"))
try:
    b"\xff".decode("utf-8")
except UnicodeDecodeError as e:
    print("UnicodeDecodeError", e.encoding, e.reason, e.start, e.end)
try:
    b[0] = 1
except TypeError as e:
    print("TypeError")
print(memoryview(b"abcdef")[1:3].tobytes(), memoryview(bytearray(4)).nbytes, b.isalpha(), b"123".isdigit())
