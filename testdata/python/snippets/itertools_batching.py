# Batching and windowing with itertools: islice-based batches of a generator, groupby runs, zip_longest padding, product grids for hyperparameters.
import itertools


def batches(iterable, size):
    it = iter(iterable)
    while batch := list(itertools.islice(it, size)):
        yield batch


print(list(batches(range(7), 3)), list(batches([], 2)))
runs = [(k, len(list(g))) for k, g in itertools.groupby([1, 1, 0, 0, 0, 1])]
print(runs, list(itertools.zip_longest([1, 2, 3], "ab", fillvalue=0)))
grid = list(itertools.product([0.1, 0.01], [32, 64], ["sgd"]))
print(len(grid), grid[0], grid[-1])
pad = lambda seqs, v=0: [list(s) for s in zip(*itertools.zip_longest(*seqs, fillvalue=v))]
print(pad([[1, 2, 3], [4], [5, 6]]))
