# dataclass inheritance: fields from bases, overriding defaults, field ordering, kw_only fields, __eq__ across classes, fields(metadata).
from dataclasses import KW_ONLY, dataclass, field, fields


@dataclass
class Base:
    name: str
    lr: float = 0.1


@dataclass
class Derived(Base):
    lr: float = 0.5
    layers: int = 2
    tags: list = field(default_factory=lambda: ["x"], metadata={"doc": "tags"})


d = Derived("m")
print(d, [f.name for f in fields(Derived)], fields(Derived)[-1].metadata["doc"])
print(Base("m", 0.5) == Derived("m", 0.5), Derived("a", 1.0, 3))


@dataclass
class Opts:
    a: int
    _: KW_ONLY
    b: int = 1
    c: str = "c"


print(Opts(1, c="z"), Opts(a=2, b=3))
try:
    Opts(1, 2)
except TypeError:
    print("TypeError")


@dataclass(eq=False)
class Ident:
    x: int


print(Ident(1) == Ident(1), repr(Ident(1)))
