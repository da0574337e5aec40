# How print/str/repr show containers of mixed objects: nested lists/tuples/dicts, floats inside containers, None/True, bytes, empty containers.
print([1, 2.0, "s", None, True, b"b", (1,), [], {}, set(), frozenset(), 1e-5, -0.0, 1e100])
print((1,), (), ((1, 2),), [[]], {"a": {"b": [1, {"c": None}]}}, {(1, 2): [3.5]})
print(str([0.1, 0.2]), repr("quote's"), ["it's", 'say "x"'], {"k": "v'"}, [1.0 / 3])
print(range(0, 10, 2), slice(1, 2), type(None), type, int, object(), sep=" | ") if False else print(range(0, 10, 2), slice(1, 2), type(None), type, int)
print(list(zip([1], ["a"])), dict(a=[1]), [print], sep="\n") if False else print(list(zip([1], ["a"])), dict(a=[1]))
print(Ellipsis, ..., NotImplemented is NotImplemented, [..., None])
