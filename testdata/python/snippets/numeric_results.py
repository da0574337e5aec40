# Floating-point results to the last digit: round(x, n) on binary floats, math.log/log1p/tan/erfc/lgamma/cbrt,
# statistics.geometric_mean and random.gauss (built on math.log), complex integer powers and division, divmod of -0.0,
# a float power that overflows.
import math
import random
import statistics

for v in [2.675, 1.15, -2.675, 0.0005, 8.345]:
    print(v, round(v, 2), round(v, 1), round(v, 3))
print(math.log(10), math.log(3), math.log(0.1), math.log(2 ** 100))
print(math.log1p(1e-10), math.log1p(1e-5), math.tan(math.pi / 4), math.erfc(0.5), math.lgamma(10), math.cbrt(27))
print(statistics.geometric_mean([1, 10, 100]))
r = random.Random(2019)
print(r.gauss(0, 1), r.normalvariate(5, 2), r.expovariate(1.5))
print(1j ** 2, (1 + 1j) ** 3, 2j ** 4, (3 + 4j) / (1 - 1j))
print(divmod(-0.0, 1), -0.0 // 1)
try:
    print(2.0 ** 10000)
except OverflowError:
    print("OverflowError")
