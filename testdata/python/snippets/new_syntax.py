# Syntax of Python 3.10/3.11 that scripts may use: the match statement and except* with exception groups.
def describe(obj):
    match obj:
        case 0 | 1:
            return "small"
        case [x, *rest]:
            return "sequence of %d" % (1 + len(rest))
        case {"type": t}:
            return "layer " + t
        case str(s) if s:
            return "text"
        case _:
            return "other"


print([describe(v) for v in [0, [1, 2], {"type": "fc"}, "a", 3.5]])
try:
    raise ExceptionGroup("two", [ValueError("a"), TypeError("b")])
except* ValueError as eg:
    print("values", [str(e) for e in eg.exceptions])
except* TypeError as eg:
    print("types", [str(e) for e in eg.exceptions])
