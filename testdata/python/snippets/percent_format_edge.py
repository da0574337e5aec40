# %-format edge cases: a single tuple argument, %s of tuples, dict-driven formats with repeated keys, %c with ints, %r of nested data.
t = (1, 2)
print("value: %s" % (t,), "%s %s" % t, "%(a)s %(a)s %(b)d" % {"a": "x", "b": 3}, "%c%c" % (72, "i"))
print("%r" % ({"k": [1, "two"]},), "%-6s|%6s|" % ("ab", "cd"), "%.3s" % "abcdef", "%5.1f%%" % 99.44)
print("%s" % None, "%d" % True, "%d" % 3.99, "%s" % 3.0, "%.2f" % 2, "%i" % -0.5, "%o" % 64, "%X" % 3054)
print("%s" % [1, 2], "%s" % {1}, "%%d", "100%%" % (), "%s%%" % 50)
try:
    "%d" % None
except TypeError as e:
    print("TypeError")
try:
    "%(missing)s" % {}
except KeyError as e:
    print("KeyError", e)
