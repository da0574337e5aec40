# collections.Counter: counting words, most_common ties (insertion order), arithmetic, update/subtract, elements, total.
from collections import Counter

words = "the cat and the hat and the bat".split()
c = Counter(words)
print(c.most_common(2), c["the"], c["missing"], len(c))
print(sorted(c.items()), c.most_common()[-1])
c.update(["cat", "cat"])
c.subtract({"the": 3})
print(sorted(c.items()))
a, b = Counter("aabbbc"), Counter("abd")
print(sorted((a + b).items()), sorted((a - b).items()), sorted((a & b).items()), sorted((a | b).items()))
print(sorted(Counter({"x": 2, "y": 1}).elements()), sum(a.values()), Counter("abracadabra").most_common(3))
labels = [0, 1, 1, 2, 1, 0]
print(Counter(labels), dict(Counter(labels)))
print(Counter(a=3, b=-1) + Counter(), Counter("hello") == Counter("olleh"))
