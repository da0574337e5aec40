# Reproducibility with random: re-seeding gives the same stream, separate Random instances do not interfere, shuffle of a copy, seeded train/val split.
import random

def stream(seed, n=5):
    random.seed(seed)
    return [random.randint(0, 99) for _ in range(n)]


print(stream(7), stream(7) == stream(7), stream(8))
a, b = random.Random(1), random.Random(1)
a.random()
print(b.random() != a.random(), random.Random(1).random() == random.Random(1).random())
data = list(range(10))
copy = data[:]
random.Random(42).shuffle(copy)
print(data, copy)
idx = list(range(20))
random.Random(0).shuffle(idx)
split = int(0.8 * len(idx))
print(sorted(idx[:split]), sorted(idx[split:]))
print(round(random.Random(5).uniform(0.001, 0.1), 8), random.Random(5).choice(range(100)))
