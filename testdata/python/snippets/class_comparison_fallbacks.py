# Comparison fallbacks: reflected __eq__/__lt__, NotImplemented from both sides, __eq__ default identity, __ne__ derived from __eq__, sorting mixed subclasses.
class A:
    def __init__(self, v):
        self.v = v

    def __eq__(self, other):
        print("A.__eq__")
        return NotImplemented

    def __lt__(self, other):
        if isinstance(other, A):
            return self.v < other.v
        return NotImplemented


class B(A):
    def __eq__(self, other):
        print("B.__eq__")
        return isinstance(other, A) and self.v == other.v

    def __gt__(self, other):
        print("B.__gt__")
        return self.v > other.v


print(A(1) == B(1))
print(B(1) == A(1))
print(A(1) == A(1))
print(A(1) != A(1))
print(A(1) < B(2))
print(sorted([B(3), A(1), B(2)], key=lambda o: o.v)[0].v, sorted([A(3), A(1)])[0].v)
