# math: sqrt, exp, log (bases), pow, trig, hyperbolic, floor/ceil/trunc, fabs, fmod, copysign, hypot, degrees/radians.
import math

print(math.sqrt(2), math.exp(1), math.log(8, 2), math.log10(1000), math.log2(1024), math.expm1(1e-10), math.log(1), math.log(math.e))
print(math.pow(2, 0.5), math.sin(math.pi / 6), math.cos(0), math.tan(0.5), math.atan2(1, -1), math.asin(1), math.acos(0))
print(math.sinh(1), math.cosh(1), math.tanh(0.5), math.atanh(0.5), math.asinh(1), math.acosh(2))
print(math.floor(-2.5), math.ceil(-2.5), math.trunc(-2.5), math.floor(3), type(math.floor(2.5)).__name__, math.fabs(-3), math.fmod(-7, 3))
print(math.copysign(1, -0.0), math.hypot(3, 4), math.hypot(1, 2, 2), math.degrees(math.pi), math.radians(180), math.modf(3.75), math.frexp(8.0), math.ldexp(0.5, 4))
print(math.pi, math.e, math.tau, math.inf, -math.inf, math.nan != math.nan)
print(math.erf(0.5), math.gamma(5), math.dist([0, 0], [3, 4]))
