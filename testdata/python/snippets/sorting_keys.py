# sorted/sort with key and reverse, stability, sorting tuples and mixed keys, max/min with key and default.
people = [("alice", 30, 5.5), ("bob", 25, 6.1), ("carol", 30, 5.2), ("dave", 25, 5.9), ("eve", 35, 5.5)]
print(sorted(people, key=lambda p: p[1]))
print(sorted(people, key=lambda p: (-p[1], p[0])))
print(sorted(people, key=lambda p: p[2], reverse=True))
print(max(people, key=lambda p: p[2]), min(people, key=lambda p: (p[1], p[2])))
print(max([], default="empty"), min([3, 1, 2]), max(3, 7, 5), min("b", "a", key=str.upper), max([1, 5, 5], key=lambda v: v))
words = "The quick brown fox jumps over the lazy dog".split()
print(sorted(words), sorted(words, key=str.lower), sorted(words, key=len), sorted(words, key=len, reverse=True))
lst = [5, 2, 9, 1]
lst.sort()
print(lst, lst.sort(reverse=True), lst)
scores = {"x": 3, "y": 1, "z": 2}
print(sorted(scores, key=scores.get), sorted(scores.items(), key=lambda kv: kv[1], reverse=True))
print(sorted([3, 1.5, True, 0]), sorted([[2, 1], [1, 2], [1]]), sorted("hello"), sorted((2, 1)))
try:
    sorted([1, "a"])
except TypeError as e:
    print("TypeError", "not supported between instances of" in str(e))
try:
    max([])
except ValueError as e:
    print("ValueError")
