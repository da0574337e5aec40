# json.dumps: separators, indent, sort_keys, ensure_ascii, floats, special values, nested structures, tuples as lists.
import json

data = {"name": "fit_a_line", "lr": 0.001, "layers": [13, 1], "use_gpu": False, "extra": None,
        "shape": (3, 4), "nested": {"b": 1, "a": [1.5, -2e-7, 1e22]}, "unicode": "café 日本"}
print(json.dumps(data))
print(json.dumps(data, sort_keys=True, indent=2))
print(json.dumps(data, separators=(",", ":"), ensure_ascii=False, sort_keys=True))
print(json.dumps([1.0, 0.1, 100.0, 1e-10, 3.14159265358979, 2 ** 70, -0.0, True]))
print(json.dumps(float("nan")), json.dumps(float("inf")), json.dumps("quote\"back\\slash\nnl\ttab\x01"))
print(json.dumps({1: "int key", 2.5: "float key", True: "bool", None: "none"}))
print(json.dumps([], indent=4), json.dumps({}, indent=4), json.dumps([[]], indent=1), json.dumps("x", indent=2))
try:
    json.dumps({"s": {1, 2}})
except TypeError as e:
    print("TypeError:", e)
try:
    json.dumps(float("nan"), allow_nan=False)
except ValueError as e:
    print("ValueError")
