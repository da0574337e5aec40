# Complex numbers: construction, arithmetic, abs/conjugate/phase via cmath, repr forms, equality with real numbers, cmath functions.
import cmath

z = 3 + 4j
print(z, z.real, z.imag, abs(z), z.conjugate(), z * z, z / 2, z - 4j == 3, complex(1.5, -0.0), -z)
print(repr(1j), repr(-1j), repr(0j), repr(complex(0, -0.0)), repr(1 + 0j), complex("1.5-2j"), complex(" (2+3j) "))
print(cmath.phase(-1), cmath.polar(1j), cmath.rect(2, 0), cmath.sqrt(-4), cmath.exp(0), cmath.isclose(cmath.exp(1j * cmath.pi), -1))
print((1 + 2j) * (3 - 1j), (2j) * (2j), 1j * 1j, (1 + 1j) * (1 + 1j), abs(-2j), hash(1 + 0j) == hash(1))
try:
    (1 + 2j) < (2 + 3j)
except TypeError as e:
    print("TypeError")
