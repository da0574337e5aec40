# Bitwise operators on ints: &, |, ^, ~, shifts with negatives and big ints, bit tricks (power of two, popcount, masks).
a, b = 0b1100, 0b1010
print(a & b, a | b, a ^ b, ~a, a << 3, a >> 2, -a >> 1, -1 >> 10, -16 >> 2, 1 << 100, (1 << 100) >> 98)
print([n for n in range(1, 70) if n & (n - 1) == 0], bin(0xFF ^ 0x0F), (-5) & 0xFF, -5 | 2, -5 ^ 3)
print(bin(255).count("1"), (255).bit_length(), (-255).bit_length(), sum(1 for i in range(20) if 0b10110 >> i & 1))
flags = 0
for f in [1, 4, 16]:
    flags |= f
print(flags, bool(flags & 4), bool(flags & 2), flags & ~4, hex(0xDEADBEEF & 0xFFFF0000))
