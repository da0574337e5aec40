# itertools recipes: grouper with zip_longest, roundrobin, powerset, nth, all_equal, flatten, consume, repeatfunc with seeded random.
import itertools as it
import random


def grouper(iterable, n, fill=None):
    args = [iter(iterable)] * n
    return it.zip_longest(*args, fillvalue=fill)


def roundrobin(*iterables):
    nexts = it.cycle(iter(x).__next__ for x in iterables)
    pending = len(iterables)
    while pending:
        try:
            for nxt in nexts:
                yield nxt()
        except StopIteration:
            pending -= 1
            nexts = it.cycle(it.islice(nexts, pending))


def powerset(s):
    s = list(s)
    return it.chain.from_iterable(it.combinations(s, r) for r in range(len(s) + 1))


def all_equal(iterable):
    g = it.groupby(iterable)
    return next(g, True) and not next(g, False)


print(list(grouper("ABCDEFG", 3, "x")), list(roundrobin("ABC", "D", "EF")), list(powerset([1, 2, 3])))
print(next(it.islice(range(10), 3, None), None), all_equal("aaa"), all_equal("aab"), list(it.chain.from_iterable([[1], [2, 3]])))
rng = random.Random(5)
print(list(it.islice(iter(lambda: rng.randint(1, 6), None), 5)), list(it.starmap(pow, zip(range(4), it.repeat(3)))))
