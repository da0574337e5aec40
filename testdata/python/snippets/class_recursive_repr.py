# Recursive containers print with [...] and {...}; reprlib.recursive_repr for classes; reprlib.repr shortening.
import reprlib

a = [1, 2]
a.append(a)
print(a, repr(a))
d = {"self": None}
d["self"] = d
print(d)


class Tree:
    def __init__(self):
        self.children = []

    @reprlib.recursive_repr()
    def __repr__(self):
        return "Tree(%r)" % self.children


t = Tree()
t.children.append(t)
print(t)
print(reprlib.repr(list(range(100))), reprlib.repr("x" * 100))
