# The numeric tower: numbers ABCs, isinstance checks across int/float/complex/Fraction/Decimal, mixed arithmetic results and their types.
import numbers
from decimal import Decimal
from fractions import Fraction

for v in [1, 1.0, 1j, Fraction(1, 2), Decimal("1.5"), True]:
    print(type(v).__name__, isinstance(v, numbers.Number), isinstance(v, numbers.Real), isinstance(v, numbers.Rational), isinstance(v, numbers.Integral))
print(type(1 + 1.0).__name__, type(Fraction(1, 2) + 1).__name__, type(Fraction(1, 2) + 0.5).__name__, type(True + 1).__name__, type(2 * 1j).__name__)
print(Fraction(1, 2) + 1, Fraction(1, 2) + 0.5, Decimal("1.5") + 1, 1 + True, 1.5 == Fraction(3, 2), Decimal("0.5") == 0.5)
try:
    Decimal("1.5") + 0.5
except TypeError as e:
    print("TypeError")
