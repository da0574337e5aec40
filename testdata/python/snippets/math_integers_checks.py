# math integer and predicate functions: gcd, lcm, factorial, comb, perm, isqrt, prod, fsum, isclose, isnan, isinf, isfinite, domain errors.
import math

print(math.gcd(12, 18), math.gcd(0, 5), math.gcd(12, 18, 27), math.lcm(4, 6), math.factorial(10), math.comb(10, 3), math.perm(5, 2), math.isqrt(99))
print(math.prod([1, 2, 3, 4]), math.prod([], start=5), math.fsum([0.1] * 10), math.fsum([1e100, 1.0, -1e100]))
print(math.isclose(1.0, 1.0 + 1e-10), math.isclose(1, 1.1, rel_tol=0.2), math.isclose(0, 1e-12, abs_tol=1e-9))
print(math.isnan(float("nan")), math.isinf(-1e400), math.isfinite(1e308), math.isfinite(float("inf")))
for f, arg in [(math.sqrt, -1), (math.log, 0), (math.log, -1), (math.acos, 2), (math.factorial, -1)]:
    try:
        f(arg)
    except ValueError as e:
        print(f.__name__, "ValueError:", e)
try:
    math.exp(1000)
except OverflowError as e:
    print("OverflowError:", e)
print(math.floor(1e20), math.ceil(2 ** 70 + 0.5), math.trunc(1e16 + 1))
