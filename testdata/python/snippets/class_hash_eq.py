# __eq__ without __hash__ makes instances unhashable; __hash__ consistent with __eq__ in dicts/sets.
class NoHash:
    def __init__(self, v):
        self.v = v

    def __eq__(self, other):
        return isinstance(other, NoHash) and self.v == other.v


print(NoHash.__hash__ is None)
try:
    {NoHash(1)}
except TypeError as e:
    print("TypeError:", e)


class Key:
    def __init__(self, a, b):
        self.a, self.b = a, b

    def __eq__(self, other):
        return (self.a, self.b) == (other.a, other.b)

    def __hash__(self):
        return hash((self.a, self.b))


d = {Key(1, 2): "x"}
print(d[Key(1, 2)], Key(1, 2) in d, Key(2, 1) in d)
s = {Key(1, 1), Key(1, 1), Key(2, 2)}
print(len(s))
print(hash(1) == hash(1.0) == hash(True), hash((1, 2)) == hash((1, 2)))
