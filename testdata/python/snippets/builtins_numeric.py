# Numeric builtins: sum with start, abs, round, pow, divmod, min/max of mixed types, bin/oct/hex, int/float/complex constructors.
print(sum([1, 2, 3]), sum([1, 2], 10), sum([[1], [2]], []), sum((0.5, 0.25)), sum(range(101)))
print(abs(-7), abs(-0.0), round(3.14159, 2), round(-1.5), round(12345, -2), round(5.5), round(6.5))
print(pow(2, 8), pow(2.0, 3), pow(4, 0.5), pow(-2, 3), pow(3, 4, 5), divmod(17, 5), divmod(-17, 5), divmod(17.5, 5))
print(bin(10), oct(64), hex(4096), bin(-5), hex(-255), int("ff", 16), float("3.5e2"), complex(2), complex("1j"))
print(max(1, 2.5, True), min([0, -1.5, 3]), max("apple", "pear"), max([[1, 2], [1, 3]]), min((3, "a"), (3, "b")))
print(int(), float(), int(7.9), int("-0"), float(-0), int(True), bool(0.0), bool("0"), round(1e300), round(0.1234567, 5))
print(isinstance(3, (int, float)), isinstance(True, int), type(3 / 1).__name__, type(3 // 1).__name__, type(2 ** -1).__name__)
print(hash(42), hash(-1), hash(0.5), hash(2 ** 61), hash(-2), hash((1, 2)) == hash((1, 2)), hash(True))
