# Lambda-heavy idioms: sort by several keys with mixed directions, tie-breaking, sorting dict items, key functions on objects, stable multi-pass sort.
data = [("b", 2, 1.5), ("a", 2, 0.5), ("c", 1, 1.5), ("a", 1, 2.5)]
print(sorted(data, key=lambda t: (t[1], t[0])), sorted(data, key=lambda t: (-t[2], t[0])))
step1 = sorted(data, key=lambda t: t[0])
print(sorted(step1, key=lambda t: t[1], reverse=True))
scores = {"x": 0.9, "y": 0.95, "z": 0.9}
print(sorted(scores.items(), key=lambda kv: (-kv[1], kv[0])), max(scores, key=lambda k: scores[k]), min(scores.items(), key=lambda kv: kv[1]))
print(sorted(["a10", "a2", "a1"], key=lambda s: int(s[1:])), sorted([-3, 1, -2], key=abs), sorted("BaCb", key=lambda c: (c.lower(), c)))
print(list(filter(lambda kv: kv[1] > 0.91, scores.items())), list(map(lambda t: t[0] * t[1], data)))
