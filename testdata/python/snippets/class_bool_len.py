# Truthiness: __bool__, __len__ fallback, default truthiness, bool() of builtins.
class Empty:
    def __len__(self):
        return 0


class Flag:
    def __init__(self, on):
        self.on = on

    def __bool__(self):
        return self.on


class Plain:
    pass


for obj in [Empty(), Flag(True), Flag(False), Plain(), 0, 0.0, "", "a", [], [0], {}, None, (), set(), 0j]:
    print(type(obj).__name__, bool(obj), "yes" if obj else "no")
print(not Empty(), Flag(False) or "fallback", Flag(True) and "second")


class BadBool:
    def __bool__(self):
        return 1


try:
    bool(BadBool())
except TypeError as e:
    print("TypeError")
