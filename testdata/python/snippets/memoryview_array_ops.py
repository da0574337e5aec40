# memoryview over bytearray: slicing without copies, writes through, casting to other formats, tolist, release, comparisons.
buf = bytearray(b"abcdefgh")
mv = memoryview(buf)
print(mv[0], mv[2:5].tobytes(), mv.nbytes, mv.readonly, mv.format, mv.itemsize, len(mv))
mv[0] = ord("A")
mv[1:3] = b"BC"
print(buf)
ints = memoryview(bytearray(8)).cast("I")
ints[0] = 1
ints[1] = 2 ** 32 - 1
print(ints.tolist(), bytes(ints.obj), ints.format, len(ints))
print(memoryview(b"xyz") == b"xyz", bytes(memoryview(b"hello")[1:4]), memoryview(b"ab").hex())
ro = memoryview(b"const")
try:
    ro[0] = 1
except TypeError:
    print("TypeError: read-only")
mv.release()
try:
    mv[0]
except ValueError:
    print("ValueError: released")
