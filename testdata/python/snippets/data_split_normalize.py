# Data preparation without numpy: train/test split by ratio, min-max and z-score normalization per feature, one-hot labels, batching.
import math

rows = [[1.0, 200.0, 3.0], [2.0, 180.0, 1.0], [3.0, 220.0, 2.0], [4.0, 160.0, 5.0], [5.0, 240.0, 4.0]]
labels = [0, 1, 2, 1, 0]
cols = list(zip(*rows))
mins, maxs = [min(c) for c in cols], [max(c) for c in cols]
scaled = [[(v - lo) / (hi - lo) for v, lo, hi in zip(r, mins, maxs)] for r in rows]
print(scaled)
means = [sum(c) / len(c) for c in cols]
stds = [math.sqrt(sum((v - m) ** 2 for v in c) / len(c)) for c, m in zip(cols, means)]
print([["%.4f" % ((v - m) / s) for v, m, s in zip(r, means, stds)] for r in rows])
ratio = 0.8
cut = int(len(rows) * ratio)
train, test = rows[:cut], rows[cut:]
print(len(train), len(test), test)
one_hot = [[1 if i == l else 0 for i in range(3)] for l in labels]
print(one_hot, [list(range(len(rows)))[i:i + 2] for i in range(0, len(rows), 2)])
