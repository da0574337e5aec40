# dataclasses: defaults, field(default_factory), repr/eq, order, frozen, asdict/astuple, replace, __post_init__.
import dataclasses
from dataclasses import dataclass, field
from typing import List


@dataclass
class Config:
    name: str
    lr: float = 0.01
    layers: List[int] = field(default_factory=list)
    debug: bool = field(default=False, repr=False)


c = Config("mnist")
c.layers.append(128)
print(c)
print(c == Config("mnist", 0.01, [128]), c == Config("mnist"))
print(dataclasses.asdict(c), dataclasses.astuple(c))
print(dataclasses.replace(c, lr=0.1))
print([f.name for f in dataclasses.fields(Config)])


@dataclass(order=True, frozen=True)
class Item:
    priority: int
    label: str = "x"


items = [Item(3, "c"), Item(1, "a"), Item(2), Item(1, "0")]
print(sorted(items))
try:
    items[0].priority = 9
except dataclasses.FrozenInstanceError as e:
    print("FrozenInstanceError:", e)
print(hash(Item(1, "a")) == hash(Item(1, "a")))


@dataclass
class Rect:
    w: float
    h: float
    area: float = field(init=False)

    def __post_init__(self):
        self.area = self.w * self.h


print(Rect(2, 3.5))
print(dataclasses.is_dataclass(Rect), dataclasses.is_dataclass(Rect(1, 1)), dataclasses.is_dataclass(3))
