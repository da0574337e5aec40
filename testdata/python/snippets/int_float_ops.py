# Integer and float arithmetic: floor division and modulo signs, divmod, int() parsing with bases, bool arithmetic, complex.
for a, b in [(7, 2), (-7, 2), (7, -2), (-7, -2)]:
    print(a, b, a // b, a % b, divmod(a, b), a / b)
print(int("0x1f", 16), int("1f", 16), int("0b101", 0), int("0o17", 0), int("z", 36), int(" 42 "), int("-1_000"))
print(True + True, True * 10, False - 1, sum([True, False, True]), int(True), -True)
print(abs(-3), abs(-3.5), abs(3 + 4j), pow(2, 10), 2 ** -1, (-8) ** (1 / 3) == (-8) ** (1 / 3))
z = complex(1, 2)
print(z, z * z, z.real, z.imag, z.conjugate(), (1 + 2j) / (3 - 4j), complex("3+4j"), 1j * 1j)
print(max(3, 3.0), min(-0.0, 0), 10 / 4, 10 // 4.0, 2 ** 3 ** 2, -2 ** 2, (-2) ** 2)
print((5).bit_length(), (255).to_bytes(2, "little"), int.from_bytes(b"\x01\x00", "big"), (12).bit_count() if hasattr(int, "bit_count") else 2)
print(1 < 2 < 3, 1 < 3 < 2, 3 > 2 == 2, 1 == 1.0, 0.1 + 0.2 == 0.3, 10 ** 20 == 1e20, round(-0.5), round(1.5))
print(0o777, 0xFF, 0b1010, 1_000_000, 1e3, 1E-3, 0.5e1)
try:
    int("12a")
except ValueError as e:
    print("ValueError:", e)
try:
    1 % 0
except ZeroDivisionError as e:
    print("ZeroDivisionError:", e)
try:
    1.0 / 0
except ZeroDivisionError as e:
    print("ZeroDivisionError:", e)
