# Type hints: annotations on functions and variables, __annotations__, typing generics, Optional/Union, get_type_hints.
from typing import Any, Callable, Dict, List, Optional, Tuple, Union, get_type_hints


def train(data: List[Tuple[int, float]], epochs: int = 1, cb: Optional[Callable[[int], None]] = None) -> Dict[str, Any]:
    return {"n": len(data) * epochs}


class Cfg:
    lr: float = 0.1
    name: str
    sizes: List[int]


x: int = 5
y: "Forward"
print(train([(1, 2.0)], 3))
print(sorted(train.__annotations__))
print(train.__annotations__["epochs"], train.__annotations__["return"])
print(Cfg.__annotations__["lr"], Cfg.lr, hasattr(Cfg, "name"))
print(__annotations__)
print(get_type_hints(train)["cb"])
print(Union[int, str], Optional[int], List[int], Dict[str, List[int]])
print(list[int], dict[str, int], tuple[int, ...], int | None)


def f(a: "int") -> "str":
    return str(a)


print(sorted(f.__annotations__.items()), f(3))
