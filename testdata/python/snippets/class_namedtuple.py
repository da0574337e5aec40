# collections.namedtuple and typing.NamedTuple: fields, _replace, _asdict, defaults, unpacking.
import collections
import typing

Point = collections.namedtuple("Point", ["x", "y"])
p = Point(1, y=2)
print(p, p.x + p.y, p[0], p._fields, p._asdict())
print(p._replace(x=10), Point._make([5, 6]), tuple(p), p == (1, 2))
x, y = p
print(x, y, len(p), p.index(2), p.count(1))
Opt = collections.namedtuple("Opt", "lr momentum decay", defaults=[0.9, 0.0])
print(Opt(0.1), Opt._field_defaults)


class Sample(typing.NamedTuple):
    image: str
    label: int = 0

    def describe(self):
        return "%s:%d" % self


s = Sample("a.png")
print(s, s.describe(), Sample("b.png", 3).label, Sample._fields)
try:
    p.x = 3
except AttributeError as e:
    print("AttributeError")
