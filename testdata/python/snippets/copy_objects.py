# copy of user objects: shallow copy shares nested lists, deepcopy copies them, __copy__ override, copying dataclasses, dicts of lists, slots objects.
import copy
from dataclasses import dataclass, field


@dataclass
class State:
    step: int
    history: list = field(default_factory=list)


s = State(1, [0.5])
shallow, deep = copy.copy(s), copy.deepcopy(s)
s.history.append(0.4)
s.step = 2
print(s, shallow, deep)


class Counter:
    def __init__(self):
        self.n = 0

    def __copy__(self):
        c = Counter()
        c.n = self.n + 100
        return c


c = Counter()
print(copy.copy(c).n, copy.deepcopy(c).n)


class Slots:
    __slots__ = ("a", "b")

    def __init__(self):
        self.a, self.b = [1], 2


sc = copy.deepcopy(Slots())
print(sc.a, sc.b, copy.copy({"k": [1]})["k"] is not None)
