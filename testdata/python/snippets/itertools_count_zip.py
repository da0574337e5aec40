# Counting and pairing with itertools: count() as an id source, enumerate vs zip(count()), cycle for round-robin assignment, repeat for padding.
import itertools

ids = itertools.count(100)
items = {name: next(ids) for name in ["conv", "pool", "fc"]}
print(items, next(ids))
workers = itertools.cycle(["gpu0", "gpu1", "gpu2"])
print([(task, next(workers)) for task in range(5)])
print(list(zip(itertools.count(), "abc")) == list(enumerate("abc")), list(itertools.repeat(0, 3)) + [1])
seq = [3, 4]
print(seq + list(itertools.repeat(0, 5 - len(seq))), list(itertools.islice(itertools.count(0, 0.25), 5)))
