# decimal (context precision, quantize rounding, exact string construction) and fractions (arithmetic, limit_denominator).
from decimal import ROUND_HALF_UP, Decimal, getcontext
from fractions import Fraction

print(Decimal("0.1") + Decimal("0.2"), Decimal(0.1), Decimal("1.10") * 3, Decimal("10") / Decimal("3"))
print(Decimal("2.675").quantize(Decimal("0.01"), rounding=ROUND_HALF_UP), Decimal("2.665").quantize(Decimal("0.01")), Decimal("7").sqrt())
getcontext().prec = 6
print(Decimal(1) / Decimal(7), Decimal("123.456789") + 0, +Decimal("1.23456789"))
print(Decimal("-0"), Decimal("1e3"), Decimal("1E+3").normalize(), Decimal("3.140").as_tuple(), int(Decimal("9.99")), float(Decimal("0.5")))
f = Fraction(3, 4) + Fraction(1, 6)
print(f, Fraction(0.5), Fraction("2/6"), f.numerator, f.denominator, float(f), Fraction(1, 3) * 3 == 1)
print(Fraction(3.14159).limit_denominator(100), Fraction(7, -14), Fraction(5, 3) // 1, round(Fraction(7, 2)), Fraction(1, 3) < 0.34)
