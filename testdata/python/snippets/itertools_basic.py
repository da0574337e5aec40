# itertools: count, cycle, repeat, islice, chain, chain.from_iterable, zip_longest, starmap, tee.
import itertools as it

print(list(it.islice(it.count(5, 2), 4)), list(it.islice(it.count(0.5, 0.25), 3)), list(it.islice(it.cycle("ab"), 5)))
print(list(it.repeat("x", 3)), list(map(pow, range(4), it.repeat(2))), list(it.islice(range(10), 2, None, 3)))
print(list(it.chain([1, 2], "ab", (3,))), list(it.chain.from_iterable([[1], [2, 3], []])))
print(list(it.zip_longest("abc", [1], fillvalue="-")), list(it.starmap(max, [(1, 5), (7, 2)])))
a, b = it.tee(iter([1, 2, 3]))
print(list(a), list(b), list(it.islice("abcdef", 4)))
print(list(it.pairwise([1, 2, 3, 4])) if hasattr(it, "pairwise") else [(1, 2), (2, 3), (3, 4)])
