# Float repr and str: shortest repr, round(), large/small exponents, negative zero, integer-valued floats.
for v in [0.1, 0.2, 0.1 + 0.2, 1 / 3, 2 / 3, 1e-4, 1e-5, 123456789012345678.0, 1e16, 1e15, 100.0, -0.0,
          2.5, 1.0 / 7, 3.0e-310, 1.7976931348623157e308, 0.30000000000000004, 5e-324, 12345.6789e10]:
    print(repr(v), str(v), round(v, 3))
print(round(2.5), round(3.5), round(-2.5), round(0.125, 2), round(0.375, 2), round(1234.5678, -2), round(7, -1))
print(float("1e3"), float(" -12.5 "), float("inf"), float("-Infinity"), float("nan"), int(3.99), int(-3.99))
print(1e300 * 1e10, -1e300 * 1e10, (1e300 * 1e10) - (1e300 * 1e10))
print(0.1 * 3, 1.1 * 1.1, 100 * 1.1, 3 * 0.1 == 0.3, abs(3 * 0.1 - 0.3) < 1e-9)
print(float.is_integer(2.0), (2.5).as_integer_ratio(), (0.1).hex(), float.fromhex("0x1.8p1"))
print(2 ** 0.5, 10 ** -2, 7 / 2, 7 // 2, -7 // 2, 7 % -3, -7 % 3, 7.5 % 2, divmod(-7.5, 2))
