# Paddle-style reader decorators written in plain Python: creator, map_readers, buffered, firstn, chain, compose, xmap-free shuffle with a seed.
import itertools
import random


def creator(n):
    def reader():
        for i in range(n):
            yield i, float(i) / n
    return reader


def map_readers(fn, *readers):
    def reader():
        for items in zip(*[r() for r in readers]):
            yield fn(*items)
    return reader


def firstn(reader, n):
    def r():
        yield from itertools.islice(reader(), n)
    return r


def chain(*readers):
    def r():
        for rd in readers:
            yield from rd()
    return r


def compose(*readers):
    def r():
        for items in zip(*[rd() for rd in readers]):
            yield sum((it if isinstance(it, tuple) else (it,) for it in items), ())
    return r


def shuffle(reader, buf_size, seed=0):
    def r():
        rng = random.Random(seed)
        buf = []
        for e in reader():
            buf.append(e)
            if len(buf) >= buf_size:
                rng.shuffle(buf)
                yield from buf
                buf = []
        rng.shuffle(buf)
        yield from buf
    return r


print(list(firstn(creator(10), 3)()))
print(list(map_readers(lambda a, b: a[0] + b[0], creator(3), creator(3))()))
print(list(chain(firstn(creator(5), 2), firstn(creator(3), 1))()))
print(list(compose(firstn(creator(4), 2), lambda: iter("ab"))()))
print([x[0] for x in shuffle(creator(8), 3, seed=7)()])
