# Rounding for display: round() with ndigits on values that are exact in binary, format() rounding, ceil/floor to decimals via scaling, int truncation.
import math

for v in [0.5, 1.25, 2.5, 0.125, 3.75, 10.0625]:
    print(v, round(v), round(v, 1), round(v, 2), format(v, ".1f"), "%.2f" % v)
print(math.ceil(1.231 * 100) / 100, math.floor(1.239 * 100) / 100, int(7.99), round(123.456, -1), round(-1.5), round(-2.5))
print(round(7), round(7, 2), type(round(7.5)).__name__, type(round(7.5, 1)).__name__, round(1e20) == 10 ** 20)
