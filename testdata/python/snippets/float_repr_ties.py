# Floats whose exact value lies halfway between two shortest decimals
# (float32 results widened to float, as `float(loss[0])` gives): repr,
# str, %-formatting and str.format print the even one, as CPython does.
import struct

bits = [0x41787FFF, 0xC4647159, 0x4278D5E4, 0x3F9D70A4, 0x47C35000, 0x3A83126F]
for b in bits:
    x = struct.unpack('<f', struct.pack('<I', b))[0]
    print(repr(x), str(-x), "%r|%s" % (x, x), "{}|{!r}".format(x, x), f"{x}")
print(15.5316925048828125, -913.77105712890625, 1801514316094494.25, 0.1 + 0.2)
print([0.5, 1e16, 1.5e-7, 123456789.0, 1e22, 5e-324], (2.5,), {"lr": 0.0001})
