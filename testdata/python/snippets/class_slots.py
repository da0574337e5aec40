# __slots__: slot attributes, unset slots raise AttributeError, slots with inheritance, subclasses without __slots__ get a __dict__.
class P:
    __slots__ = ("x", "y")

    def __init__(self, x, y):
        self.x = x
        self.y = y


p = P(1, 2)
print(p.x, p.y)
try:
    P.__new__(P).x
except AttributeError as e:
    print("unset slot AttributeError")


class Q(P):
    __slots__ = ("z",)


q = Q(1, 2)
q.z = 5
print(q.x, q.y, q.z, sorted(Q.__slots__), P.__slots__)


class R(P):
    pass


r = R(3, 4)
r.w = 9
print(r.w, hasattr(r, "__dict__"), r.__dict__)
print(type(P.x).__name__)
