# Language semantics RustPython gets wrong, each checked on its own: __slots__ enforcement, deleting the "except ... as" name,
# dict displays with ** and keys in source order, closing abandoned generators, the order of __annotations__, a function's __dict__,
# and the traceback entries of a bare re-raise.
import gc


class Slotted:
    __slots__ = ("x",)


s = Slotted()
try:
    s.undeclared = 1
    print("slots: assignment allowed", hasattr(s, "__dict__"))
except AttributeError:
    print("slots: AttributeError", hasattr(s, "__dict__"))

try:
    raise KeyError("k")
except KeyError as err:
    pass
print("except name kept:", "err" in dir())

defaults = {"lr": 0.1, "epochs": 5}
print({**defaults, "lr": 0.5}, {**defaults, "batch": 32})


def reader():
    try:
        yield 1
        yield 2
    finally:
        print("reader closed")


for v in reader():
    break
gc.collect()
print("after loop")


def f(a: int, b: str = "") -> bool:
    return True


print(list(f.__annotations__))
f.custom = 1
print(sorted(vars(f)))


def reraise():
    try:
        {}["k"]
    except KeyError:
        raise


try:
    reraise()
except KeyError as e:
    import traceback
    print([(t.name, t.lineno) for t in traceback.extract_tb(e.__traceback__)])
