# list.sort stability and key behaviour: multiple passes, sorting with None values handled by key, sorting lists of lists, sort with key=len and ties.
people = [("ann", 30), ("bob", 25), ("cat", 30), ("dan", 25), ("eve", 35)]
people.sort(key=lambda p: p[0], reverse=True)
people.sort(key=lambda p: p[1])
print(people)
vals = [3, None, 1, None, 2]
print(sorted(vals, key=lambda v: (v is None, v or 0)), sorted(vals, key=lambda v: float("-inf") if v is None else v))
words = ["bb", "a", "ccc", "dd", "e"]
print(sorted(words, key=len), sorted(words, key=len, reverse=True), sorted([[3, 1], [2], [3, 0], []]))
nums = [5, 3, 5, 1]
nums.sort(reverse=True)
print(nums, sorted("Mississippi"), sorted("Mississippi", key=str.lower), sorted(set("hello")))
