# Rich comparisons, functools.total_ordering, sorting custom objects, __eq__ and __hash__.
import functools


@functools.total_ordering
class Version:
    def __init__(self, text):
        self.parts = tuple(int(p) for p in text.split("."))

    def __eq__(self, other):
        return self.parts == other.parts

    def __lt__(self, other):
        return self.parts < other.parts

    def __hash__(self):
        return hash(self.parts)

    def __repr__(self):
        return "V" + ".".join(map(str, self.parts))


vs = [Version(s) for s in ["1.10.0", "1.2.3", "0.9", "1.2.3", "2.0"]]
print(sorted(vs))
print(max(vs), min(vs))
print(Version("1.2") < Version("1.10"), Version("2.0") >= Version("2.0"), Version("3") > Version("2.9"))
print(Version("1.0") != Version("1.0"), Version("1.0") <= Version("0.1"))
print(len({Version("1.0"), Version("1.0"), Version("1.1")}))


class Plain:
    pass


try:
    Plain() < Plain()
except TypeError as e:
    print("TypeError:", e)
p = Plain()
print(p == p, p == Plain(), p != Plain())
