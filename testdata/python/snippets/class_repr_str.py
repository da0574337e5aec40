# __repr__ vs __str__ in print, str(), repr(), containers, f-strings with !r and !s.
class Point:
    def __init__(self, x, y):
        self.x, self.y = x, y

    def __repr__(self):
        return f"Point({self.x!r}, {self.y!r})"

    def __str__(self):
        return f"({self.x}, {self.y})"


class OnlyRepr:
    def __repr__(self):
        return "<OnlyRepr>"


p = Point(1, "a")
print(p)
print(repr(p), str(p))
print([p, p])
print({"k": p})
print(f"{p} {p!r} {p!s}")
print(OnlyRepr(), str(OnlyRepr()), [OnlyRepr()])
print("%s and %r" % (p, p))
print("{0} {0!r}".format(p))


class Default:
    pass


print(repr(Default()).startswith("<__main__.Default object at 0x"))
