# Big integers: factorials, powers, pow with modulus and negative exponents, bit operations, str/int conversion of huge numbers.
import math

n = math.factorial(50)
print(n, len(str(n)), n.bit_length())
print(2 ** 200, -(2 ** 100) // 3, -(2 ** 100) % 7, (2 ** 100) // -3)
print(pow(3, 1000, 10 ** 9 + 7), pow(2, -1, 7), pow(7, 123456789, 1000000007))
x = 12345678901234567890123456789
print(x * x, x // 987654321, x % 987654321, divmod(x, -10 ** 10))
print(x >> 40, x << 10, x & 0xFFFFFFFF, x | 1, x ^ (x >> 1), ~x)
print(int("9" * 60) + 1, int("-" + "1" * 40, 2), hex(2 ** 70), oct(2 ** 70), bin(2 ** 70 - 1)[:10])
print(abs(-10 ** 30), math.isqrt(10 ** 40 + 1), math.gcd(2 ** 64, 6 ** 40), (10 ** 30) / 7)
print(sum(range(10 ** 6)), 3 ** 3 ** 3, (-2) ** 63, int(1e20), float(2 ** 80))
print((2 ** 64).to_bytes(9, "big"), int.from_bytes(b"\xff" * 10, "little"), (-1).to_bytes(4, "big", signed=True))
print(sorted([2 ** 65, -2 ** 65, 0, 2 ** 64]), max(2 ** 100, 2.0 ** 99), 2 ** 100 == 2.0 ** 100)
