# json with nested containers and unicode: default dumps escapes, ensure_ascii=False, surrogate pairs, loads of escapes, round trips.
import json

obj = {"名字": "模型", "emoji": "😀", "mixed": ["a", 1, 2.5, None, True, {"deep": [[1, [2]]]}]}
s = json.dumps(obj)
print(s)
print(json.dumps(obj, ensure_ascii=False))
print(json.loads(s) == obj, json.loads('"\\ud83d\\ude00"'), json.loads('"\\u00e9\\t\\\\"'))
print(json.dumps(obj, indent="\t", ensure_ascii=False))
print(json.dumps([1, [2, [3, [4]]]], indent=1))
print(json.dumps({"a": 1, "b": [1, 2]}, separators=(", ", ": "), indent=None), json.dumps("\u2028\u2029"))
