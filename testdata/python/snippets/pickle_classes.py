# pickle of user classes: namedtuple, dataclass, enum members, module-level functions by reference, nested dicts of objects, reduce.
import collections
import dataclasses
import enum
import pickle

Point = collections.namedtuple("Point", "x y")


@dataclasses.dataclass
class Cfg:
    lr: float
    layers: list


class Mode(enum.Enum):
    TRAIN = 1


def activation(x):
    return max(0, x)


class Ranged:
    def __init__(self, lo, hi):
        self.lo, self.hi = lo, hi

    def __reduce__(self):
        return (Ranged, (self.lo, self.hi))

    def __repr__(self):
        return "Ranged(%d, %d)" % (self.lo, self.hi)


obj = {"p": Point(1, 2), "cfg": Cfg(0.1, [64]), "mode": Mode.TRAIN, "fn": activation, "r": Ranged(1, 5)}
back = pickle.loads(pickle.dumps(obj, protocol=pickle.HIGHEST_PROTOCOL))
print(back["p"], back["cfg"], back["mode"], back["mode"] is Mode.TRAIN, back["fn"] is activation, back["fn"](-3), back["r"])
print(pickle.loads(pickle.dumps(Point(3, 4), protocol=0)), pickle.loads(pickle.dumps(Cfg(1.0, []), 2)))
