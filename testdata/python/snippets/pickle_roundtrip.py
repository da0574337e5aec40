# pickle round trips of builtin types (all protocols), classes, nested and shared references, and the bytes of small pickles.
import pickle


class Point:
    def __init__(self, x, y):
        self.x, self.y = x, y

    def __eq__(self, o):
        return (self.x, self.y) == (o.x, o.y)


data = {"ints": [1, -2, 2 ** 70], "floats": (0.1, float("inf")), "text": "café", "bytes": b"\x00\xff",
        "none": None, "bools": [True, False], "set": {1, 2, 3}, "frozen": frozenset([4]), "nested": {"a": [[]]},
        "complex": 1 + 2j, "point": Point(1, 2)}
for proto in range(pickle.HIGHEST_PROTOCOL + 1):
    back = pickle.loads(pickle.dumps(data, protocol=proto))
    print(proto, back == data, type(back["point"]).__name__)
shared = [1, 2]
obj = pickle.loads(pickle.dumps([shared, shared]))
print(obj[0] is obj[1], pickle.HIGHEST_PROTOCOL, pickle.DEFAULT_PROTOCOL)
print(pickle.dumps([1, 2, "a"], protocol=2))
print(pickle.dumps({"k": (1.5, None)}, protocol=0))
print(pickle.dumps((1, True, b"x"), protocol=4))
