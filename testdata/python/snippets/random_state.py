# random's Mersenne Twister: seeded sequences, getstate/setstate round trips (Paddle 1.0's op_test.py saves and restores
# the state around every test class), seeds of every kind, and setstate's errors.
import random

random.seed(1)
print(random.random(), random.randint(0, 100), random.getrandbits(70))
state = random.getstate()
print(len(state), state[0], len(state[1]), state[1][:3], state[1][-1], state[2])
first = [random.random() for _ in range(3)]
random.setstate(state)
again = [random.random() for _ in range(3)]
print(first == again, first)

for seed in ("hello", b"bytes", -5, 0, 2 ** 100 + 7, 1.5):
    random.seed(seed)
    print(repr(seed), random.random(), random.randrange(1000))

r = random.Random(42)
print(r.random(), r.choice([1, 2, 3]), r.sample(range(10), 3), r.uniform(1, 2))
saved = r.getstate()
x = list(range(10))
r.shuffle(x)
r.setstate(saved)
y = list(range(10))
r.shuffle(y)
print(x, x == y)

other = random.Random()
other.setstate(r.getstate())
print(other.random() == r.random())

for bad in ((3, (1, 2), None), (3, tuple([1] * 624 + [625]), None), (3, tuple([-1] * 625), None), "state"):
    try:
        random.setstate(bad)
    except Exception as e:
        print(type(e).__name__, e)
