# Slicing text and bytes: fixed-width record fields, negative strides over unicode, slice assignment on bytearray headers, stepping through pairs.
record = "2019010212345ABCDEF  3.50"
date, code, name, value = record[:8], record[8:13], record[13:21].strip(), float(record[21:])
print(date, code, name, value, record[-4:], record[::5])
s = "héllo wörld"
print(s[::-1], s[1::2], s[-5:], s[:-6:-1], s[100:], s[3:3] == "")
hdr = bytearray(b"\x00" * 8)
hdr[0:4] = b"FLDC"
hdr[4:] = (1).to_bytes(4, "little")
print(bytes(hdr), hdr[:4].decode(), int.from_bytes(hdr[4:], "little"))
flat = [1, "a", 2, "b", 3, "c"]
print(list(zip(flat[::2], flat[1::2])), flat[1::2][::-1], flat[-2::-2])
