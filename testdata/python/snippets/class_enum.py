# enum: Enum members, value/name, iteration, lookup, IntEnum, auto, Flag.
import enum


class Mode(enum.Enum):
    TRAIN = "train"
    TEST = "test"
    INFER = "infer"


print(Mode.TRAIN, repr(Mode.TEST), Mode("infer"), Mode["TEST"].value, Mode.TRAIN.name)
print([m.name for m in Mode], len(Mode), Mode.TRAIN in Mode, Mode.TRAIN is Mode("train"))
try:
    Mode("x")
except ValueError as e:
    print("ValueError:", e)


class Level(enum.IntEnum):
    LOW = 1
    HIGH = 3


print(Level.LOW < Level.HIGH, Level.HIGH + 1, sorted([Level.HIGH, Level.LOW]), int(Level.HIGH))


class Color(enum.Enum):
    RED = enum.auto()
    GREEN = enum.auto()


print(Color.RED.value, Color.GREEN.value)


class Perm(enum.Flag):
    R = 4
    W = 2
    X = 1


rw = Perm.R | Perm.W
print(Perm.R in rw, Perm.X in rw, rw.value, bool(Perm.R & Perm.X))
