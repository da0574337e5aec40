# Arithmetic dunders: __add__, __radd__, __mul__, __neg__, __abs__, __iadd__, NotImplemented.
import math


class Vec:
    def __init__(self, x, y):
        self.x, self.y = x, y

    def __repr__(self):
        return "Vec(%r, %r)" % (self.x, self.y)

    def __add__(self, other):
        if isinstance(other, Vec):
            return Vec(self.x + other.x, self.y + other.y)
        if isinstance(other, (int, float)):
            return Vec(self.x + other, self.y + other)
        return NotImplemented

    __radd__ = __add__

    def __sub__(self, other):
        return Vec(self.x - other.x, self.y - other.y)

    def __mul__(self, k):
        return Vec(self.x * k, self.y * k)

    def __rmul__(self, k):
        return self * k

    def __truediv__(self, k):
        return Vec(self.x / k, self.y / k)

    def __floordiv__(self, k):
        return Vec(self.x // k, self.y // k)

    def __neg__(self):
        return Vec(-self.x, -self.y)

    def __abs__(self):
        return math.hypot(self.x, self.y)

    def __matmul__(self, other):
        return self.x * other.x + self.y * other.y

    def __pow__(self, n):
        return Vec(self.x ** n, self.y ** n)


a, b = Vec(1, 2), Vec(3, 4)
print(a + b, a - b, a * 3, 3 * a, a / 2, b // 2, -a, abs(b), a @ b, a ** 2)
print(a + 1, 1 + a, sum([a, b, Vec(0, 1)], Vec(0, 0)))
c = a
c += b
print(c, a, c is a)
try:
    a + "s"
except TypeError as e:
    print("TypeError")
