# itertools groupby (sorted first), accumulate (with func and initial), takewhile/dropwhile, compress, filterfalse.
import itertools as it
import operator

data = sorted(["apple", "avocado", "banana", "blueberry", "cherry", "apricot"], key=lambda w: w[0])
for key, group in it.groupby(data, key=lambda w: w[0]):
    print(key, list(group))
print([(k, len(list(g))) for k, g in it.groupby("aaabbcaa")])
print(list(it.accumulate([1, 2, 3, 4])), list(it.accumulate([1, 2, 3, 4], operator.mul)), list(it.accumulate([3, 1, 4], max)))
print(list(it.accumulate([1, 2], initial=100)))
print(list(it.takewhile(lambda x: x < 3, [1, 2, 5, 1])), list(it.dropwhile(lambda x: x < 3, [1, 2, 5, 1])))
print(list(it.compress("abcdef", [1, 0, 1, 0, 1, 1])), list(it.filterfalse(lambda x: x % 2, range(8))))
