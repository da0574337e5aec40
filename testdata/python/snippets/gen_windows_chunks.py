# Generator utilities: sliding windows with deque, chunking with islice, interleaving, unique-preserving-order, flatten one level.
import itertools
from collections import deque


def windows(it, n):
    d = deque(maxlen=n)
    for x in it:
        d.append(x)
        if len(d) == n:
            yield tuple(d)


def chunks(it, n):
    it = iter(it)
    while True:
        chunk = list(itertools.islice(it, n))
        if not chunk:
            return
        yield chunk


def unique(it):
    seen = set()
    for x in it:
        if x not in seen:
            seen.add(x)
            yield x


print(list(windows(range(6), 3)), list(chunks("abcdefg", 3)), list(unique([3, 1, 3, 2, 1])))
print(list(itertools.chain.from_iterable(zip("abc", "123"))), [x for pair in [(1, 2), (3, 4)] for x in pair])
