# typing: TypeVar and Generic classes, Protocol, overload-free Literal/Final/cast/NewType/TypedDict, Callable and get_origin/get_args.
from typing import (Callable, Dict, Final, Generic, List, Literal, NewType, Optional, Protocol, TypedDict, TypeVar,
                    Union, cast, get_args, get_origin)

T = TypeVar("T")


class Stack(Generic[T]):
    def __init__(self) -> None:
        self.items: List[T] = []

    def push(self, item: T) -> None:
        self.items.append(item)

    def pop(self) -> T:
        return self.items.pop()


s: Stack[int] = Stack()
s.push(1)
s.push(2)
print(s.pop(), Stack[int], T, T.__name__)


class HasLen(Protocol):
    def __len__(self) -> int: ...


def size(x: HasLen) -> int:
    return len(x)


UserId = NewType("UserId", int)
Mode = Literal["train", "test"]
MAX: Final = 10


class Point(TypedDict):
    x: int
    y: int


pt: Point = {"x": 1, "y": 2}
print(size([1, 2]), UserId(5), cast(int, "not checked"), pt, MAX)
print(get_origin(List[int]), get_args(Dict[str, int]), get_args(Union[int, str]), get_origin(Optional[int]) is Union)
print(get_args(Callable[[int, str], bool]), get_args(Mode), Point.__annotations__ if False else sorted(Point.__annotations__))
