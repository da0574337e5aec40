# json.loads: types produced, big ints, floats, unicode escapes, object_pairs_hook, parse_float, errors with positions.
import json
from collections import OrderedDict

s = '{"a": 1, "b": [true, false, null], "c": 1.5e3, "d": "\\u00e9\\n", "e": 123456789012345678901234567890, "f": -0.0}'
obj = json.loads(s)
print(obj, [type(v).__name__ for v in obj.values()])
print(json.loads('[1, 2.0, "3"]'), json.loads("  42  "), json.loads('"x"'), json.loads("null"), json.loads("NaN"))
print(list(json.loads('{"z": 1, "a": 2}', object_pairs_hook=OrderedDict).items()))
print(json.loads("[1.1, 2.2]", parse_float=lambda t: "f" + t), json.loads('{"a": {"b": {"c": [1]}}}')["a"]["b"]["c"])
print(json.loads(b'{"bytes": true}'), json.loads('{"dup": 1, "dup": 2}'))
for bad in ['{"a": 1,}', "[1, 2", "{'single': 1}", "", "[1] x", '{"a" 1}', "tru"]:
    try:
        json.loads(bad)
    except json.JSONDecodeError as e:
        print(repr(bad), "->", e.msg, e.pos, e.lineno, e.colno)
