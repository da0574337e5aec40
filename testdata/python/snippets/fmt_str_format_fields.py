# str.format field syntax: positional/auto numbering, attributes and indexes, nested fields, conversion flags, format_map with a dict subclass.
class P:
    x, y = 3, 4


print("{} {} {}".format(1, "a", None), "{1} {0} {1}".format("a", "b"), "{p.x},{p.y}".format(p=P), "{0[0]}{0[2]}".format("xyz"))
print("{:{w}.{p}f}".format(3.14159, w=8, p=2), "{!r:>8}".format("s"), "{!a}".format("é"), "{0!s:*^9}".format(12))


class Default(dict):
    def __missing__(self, key):
        return "<%s>" % key


print("{name} has {count} {unit}".format_map(Default(name="model", count=3)))
try:
    "{} {1}".format(1, 2)
except ValueError as e:
    print("ValueError:", e)
try:
    "{missing}".format()
except KeyError as e:
    print("KeyError", e)
print("{{}} {}".format("braces"), "{:>{}}".format("r", 4), format(12345.678, ",.1f"), format(0.000012345, ".3g"))
