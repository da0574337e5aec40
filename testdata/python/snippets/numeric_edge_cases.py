# Numeric edge cases: int/float comparison at large magnitudes, float to int truncation, nan comparisons and sorting, inf arithmetic, -0.0 behaviour.
nan, inf = float("nan"), float("inf")
print(2 ** 53 == 2.0 ** 53, 2 ** 53 + 1 == 2.0 ** 53 + 1, 2 ** 53 + 1 > 2.0 ** 53, 10 ** 400 > inf, -10 ** 400 < -inf)
print(nan == nan, nan != nan, nan < 1, max(1, nan), min(nan, 1), sorted([3, 1, 2]), inf - inf, inf * 0, inf / inf)
print(-0.0 == 0.0, str(-0.0), abs(-0.0), 0.0 * -1, 1 / inf, -1 / inf, round(-0.4), int(-0.9), divmod(-1.5, 1))
print(1e308 * 10, -1e308 * 10, 1e-323 / 10, 5e-324 / 2, float(10 ** 308), 0.1 + 0.7, 0.1 * 3 == 0.30000000000000004)
try:
    float(10 ** 309)
except OverflowError as e:
    print("OverflowError")
print(7 % 0.5, -7 % 2.5, (-7) // 2.5, 2 ** 0.5 * 2 ** 0.5, 1e22 % 7, (1 << 62) / 3, int(1e15 + 0.3))
