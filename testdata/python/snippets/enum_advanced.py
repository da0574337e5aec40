# enum: unique, functional API, members with methods and properties, aliases, iteration skips aliases, comparisons and hashing.
import enum


@enum.unique
class Phase(enum.Enum):
    TRAIN = 1
    EVAL = 2

    @property
    def is_training(self):
        return self is Phase.TRAIN

    def describe(self):
        return "%s(%d)" % (self.name.lower(), self.value)


print(Phase.TRAIN.is_training, Phase.EVAL.describe(), {Phase.TRAIN: "t"}[Phase(1)])
Color = enum.Enum("Color", "RED GREEN BLUE")
print(list(Color), Color.GREEN.value, Color["BLUE"])


class Shape(enum.Enum):
    SQUARE = 2
    DIAMOND = 1
    ALIAS = 2


print(list(Shape), Shape.ALIAS is Shape.SQUARE, Shape(2).name, Shape.__members__.keys() and sorted(Shape.__members__))
try:
    @enum.unique
    class Dup(enum.Enum):
        A = 1
        B = 1
except ValueError as e:
    print("ValueError")
print(Phase.TRAIN == 1, Phase.TRAIN.value == 1, isinstance(Phase.TRAIN, Phase), type(Phase.EVAL).__name__)
