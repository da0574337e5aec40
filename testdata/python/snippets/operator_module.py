# operator: itemgetter/attrgetter/methodcaller in sorts and maps, arithmetic function forms, in-place ops, truth and comparison functions.
import operator as op
from collections import namedtuple

rows = [("b", 2, 0.5), ("a", 3, 0.1), ("c", 1, 0.9)]
print(sorted(rows, key=op.itemgetter(1)), sorted(rows, key=op.itemgetter(2, 0)), op.itemgetter(0, 2)(rows[0]))
P = namedtuple("P", "name score")
ps = [P("x", 3), P("y", 1)]
print(sorted(ps, key=op.attrgetter("score")), op.attrgetter("name", "score")(ps[0]), list(map(op.attrgetter("name"), ps)))
print(op.methodcaller("split", ",")("a,b"), op.methodcaller("replace", "a", "b", 1)("aaa"))
print(op.add(1, 2), op.sub(5, 3), op.mul(2, 3), op.truediv(7, 2), op.floordiv(7, 2), op.mod(7, 3), op.pow(2, 5), op.neg(3), op.abs(-2))
print(op.and_(6, 3), op.or_(6, 3), op.xor(6, 3), op.lshift(1, 4), op.rshift(32, 2), op.invert(0), op.concat([1], [2]), op.contains("abc", "b"))
print(op.eq(1, 1), op.ne(1, 2), op.lt(1, 2), op.ge(2, 2), op.not_(0), op.truth([]), op.is_(None, None), op.index(5))
l = [1, 2, 3]
print(op.getitem(l, 1), op.iadd(l, [4]), l, op.setitem(l, 0, 9), l, op.delitem(l, 0), l, op.length_hint(iter(l)))
from functools import reduce
print(reduce(op.mul, range(1, 6)), list(map(op.mul, [1, 2], [3, 4])), op.itemgetter(slice(1, None))("hello"))
