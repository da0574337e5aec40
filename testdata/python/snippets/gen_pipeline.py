# Generator pipelines like data readers: batching, shuffling with a seeded RNG, reader decorators.
import random


def reader():
    for i in range(10):
        yield (i, i * i)


def batch(r, size, drop_last=False):
    def batched():
        buf = []
        for item in r():
            buf.append(item)
            if len(buf) == size:
                yield buf
                buf = []
        if buf and not drop_last:
            yield buf
    return batched


def mapped(r, fn):
    def m():
        for x in r():
            yield fn(x)
    return m


def shuffled(r, buf_size, seed):
    def s():
        rng = random.Random(seed)
        buf = []
        for x in r():
            buf.append(x)
            if len(buf) >= buf_size:
                rng.shuffle(buf)
                yield from buf
                buf = []
        rng.shuffle(buf)
        yield from buf
    return s


for b in batch(reader, 4)():
    print(b)
print(list(batch(reader, 4, drop_last=True)()))
print(list(mapped(reader, lambda p: p[0] + p[1])()))
print(list(shuffled(reader, 4, seed=1)()))
