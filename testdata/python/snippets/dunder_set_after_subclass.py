# An operator method assigned to a class after a subclass exists reaches
# the subclass's instances too (paddle.fluid patches Variable.__mul__ etc.
# in after Parameter(Variable) is defined, as Paddle 1.x's math_op_patch did).
class Tensorish(object):
    def __getitem__(self, i):
        return i


class Param(Tensorish):
    pass


Tensorish.__mul__ = lambda self, other: "mul %r" % (other,)
Tensorish.__add__ = lambda self, other: "add %r" % (other,)
Tensorish.__rsub__ = lambda self, other: "rsub %r" % (other,)
for expr in ["Param() * 0.5", "Param() * 2", "Param() + 0.5", "3 - Param()",
             "Tensorish() * 0.5"]:
    try:
        print(expr, eval(expr))
    except Exception as e:
        print(expr, type(e).__name__, e)



# A grandchild, a subclass with its own method, and __hash__ = None.
class Base(object):
    pass


class Child(Base):
    pass


class Leaf(Child):
    pass


class Own(Base):
    def __mul__(self, other):
        return "own %r" % (other,)


Base.__mul__ = lambda self, other: "mul2 %r" % (other,)
Base.__add__ = lambda self, other: "add2 %r" % (other,)
print(Leaf() * 1, Own() * 1, Child() * 1)
for expr in ["Leaf() * 1", "Own() * 1", "Child() * 1", "Leaf() + 1"]:
    try:
        print(expr, eval(expr))
    except Exception as e:
        print(expr, type(e).__name__, e)
Base.__hash__ = None
for cls in (Base, Child, Leaf):
    try:
        print(cls.__name__, hash(cls()))
    except TypeError as e:
        print(cls.__name__, "TypeError", e)
