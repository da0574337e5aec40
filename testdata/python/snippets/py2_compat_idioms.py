# Python 2 compatibility idioms found in old scripts: xrange/basestring/unicode fallbacks, dict.iteritems absence, map/zip returning iterators, integer division.
try:
    xrange
except NameError:
    xrange = range
try:
    string_types = (basestring,)
except NameError:
    string_types = (str,)
try:
    unicode_type = unicode
except NameError:
    unicode_type = str
print(list(xrange(3)), isinstance("x", string_types), unicode_type("abc"))
d = {"a": 1}
print(hasattr(d, "iteritems"), hasattr(d, "has_key"), list(d.items()))
m = map(str, [1, 2])
print(type(m).__name__, list(m), list(m), type(zip()).__name__, type(range(2)).__name__, type(filter(None, [])).__name__)
print(5 / 2, 5 // 2, -5 // 2, round(2.5), type(2 ** 64).__name__, type(10 / 5).__name__)
import functools
print(functools.reduce(lambda a, b: a + b, xrange(5)), sorted(d.keys()), "%s" % u"unicode literal")
