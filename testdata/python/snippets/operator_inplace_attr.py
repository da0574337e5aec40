# operator in-place functions and attrgetter on nested attributes, itemgetter on strings, methodcaller with kwargs, operator.call-free dispatch table.
import operator
from types import SimpleNamespace

cfg = SimpleNamespace(model=SimpleNamespace(name="lenet", size=3), lr=0.1)
print(operator.attrgetter("model.name")(cfg), operator.attrgetter("model.size", "lr")(cfg), cfg)
print(operator.itemgetter(0, -1)("paddle"), operator.methodcaller("split", sep="-", maxsplit=1)("a-b-c"))
x = [1]
y = operator.iadd(x, [2])
print(x, y is x, operator.imul(3, 4), operator.isub(10, 3), operator.ipow(2, 5), operator.iconcat("a", "b"))
ops = {"+": operator.add, "-": operator.sub, "*": operator.mul, "/": operator.truediv}
print([ops[o](6, 3) for o in "+-*/"], operator.pos(-2), operator.not_([]))
