# random with a fixed seed gives CPython's Mersenne Twister sequence: random, randint, uniform, choice, shuffle, sample, randrange.
import random

random.seed(42)
print(random.random(), random.random())
print([random.randint(0, 100) for _ in range(10)])
print(random.uniform(-1, 1), random.randrange(10), random.randrange(0, 100, 5), random.getrandbits(40))
items = list(range(10))
random.shuffle(items)
print(items)
print(random.choice("abcdefg"), random.sample(range(100), 5), random.choices("abc", k=5), random.choices([1, 2], weights=[0.1, 0.9], k=4))
random.seed("a string seed")
print(random.random())
random.seed(2 ** 80 + 7)
print(random.random(), random.randint(1, 6))
