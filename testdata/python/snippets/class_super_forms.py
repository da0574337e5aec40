# super() forms: zero-arg, two-arg, in classmethods, super() in __init_subclass__ and cooperative kwargs.
class Base:
    registry = []

    def __init_subclass__(cls, tag=None, **kw):
        super().__init_subclass__(**kw)
        Base.registry.append((cls.__name__, tag))

    def __init__(self, **kw):
        self.extra = sorted(kw)

    @classmethod
    def make(cls):
        return "made " + cls.__name__


class Left(Base, tag="L"):
    def __init__(self, left=1, **kw):
        self.left = left
        super().__init__(**kw)


class Right(Base, tag="R"):
    def __init__(self, right=2, **kw):
        self.right = right
        super(Right, self).__init__(**kw)

    @classmethod
    def make(cls):
        return super().make() + " via Right"


class Both(Left, Right):
    pass


b = Both(left=10, right=20, other=3)
print(b.left, b.right, b.extra)
print(Base.registry)
print(Both.make(), Left.make())
print(super(Left, b).__init__ is not None)
