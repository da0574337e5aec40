# int/str conversions in bases, str(int) of huge numbers, int() of floats and strings, format with bases, int.from_bytes with signed.
for v in [0, 7, -7, 255, 2 ** 31, -2 ** 63, 10 ** 20]:
    print(v, bin(v), oct(v), hex(v), format(v, "x"), int(str(v)), int(hex(v), 16), int(bin(v), 2))
print(int("777", 8), int("zz", 36), int("0b1010", 0), int("1010", 2), int(3.9999), int(-3.9999), int(1e18), int("١٢") if False else 12)
print(str(2 ** 200)[:20], len(str(3 ** 1000)), int("1" * 50) % 97, (10 ** 50) // (10 ** 48))
print(int.from_bytes(b"\xff\xfe", "big", signed=True), int.from_bytes(b"\x00\x80", "little"), (1024).to_bytes(2, "big"), (-2).to_bytes(2, "little", signed=True))
try:
    int("3.5")
except ValueError as e:
    print("ValueError:", e)
try:
    int(float("inf"))
except OverflowError as e:
    print("OverflowError")
try:
    int(float("nan"))
except ValueError as e:
    print("ValueError")
