# random with seeds for data pipelines: shuffling file lists of strings, sample without replacement, choices with cum_weights, seeding with strings and bytes.
import random

files = ["part-%03d" % i for i in range(12)]
random.seed(1234)
random.shuffle(files)
print(files)
print(random.sample(files, 3), random.choices(range(5), cum_weights=[1, 2, 3, 4, 10], k=6))
r = random.Random("seed-string")
print(r.randint(1, 1000), r.random())
r2 = random.Random(b"bytes seed")
print(r2.randrange(1000), r2.choice(["a", "b", "c"]))
random.seed(0)
train, val = [], []
for i in range(10):
    (train if random.random() < 0.7 else val).append(i)
print(train, val)
print(random.Random(3).sample(range(10 ** 9), 3), random.Random(3).getrandbits(100))
