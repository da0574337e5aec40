# Building a word dictionary as 2018 text readers did (imdb, the book's
# word2vec): count words, sort by frequency then word, keep the top ones.
# The sort also counts its comparisons: a merge sort asks at most about
# n * log2(n) of them.
import math
import random

random.seed(7)
words = ["w%d" % random.randint(0, 30000) for _ in range(60000)]
freq = {}
for w in words:
    freq[w] = freq.get(w, 0) + 1
pairs = sorted(freq.items(), key=lambda x: (-x[1], x[0]))
print(len(pairs), pairs[:5], pairs[-3:])
word_idx = dict(zip([w for w, _ in pairs], range(len(pairs))))
print(word_idx["w100"], word_idx[pairs[10][0]])

asked = [0]


class Counted(object):
    def __init__(self, value):
        self.value = value

    def __lt__(self, other):
        asked[0] += 1
        return self.value < other.value


for n in (50, 1000, 20000):
    items = [Counted((random.randint(0, 100), i)) for i in range(n)]
    asked[0] = 0
    out = sorted(items)
    ordered = all(a.value <= b.value for a, b in zip(out, out[1:]))
    print(n, ordered, asked[0] <= n * math.ceil(math.log2(n)))

# Stable, reversed, and a list already in order or reversed.
rows = [(i % 7, i) for i in range(500)]
print(sorted(rows, key=lambda r: r[0])[:4], sorted(rows, key=lambda r: r[0], reverse=True)[:4])
asked[0] = 0
sorted([Counted(i) for i in range(5000)])
print("in order", asked[0])
asked[0] = 0
sorted([Counted(-i) for i in range(5000)])
print("reversed", asked[0])
nan = float("nan")
print(sorted([3.0, nan, 1.0, 2.0, nan, 0.5, -1.0]))
