# Recursive algorithms on nested data: tree depth, flatten with recursion, permutations by backtracking, merge sort, memoized DP (edit distance).
import functools


def depth(node):
    return 1 + max((depth(c) for c in node.get("children", [])), default=0)


tree = {"children": [{"children": [{}]}, {"children": [{"children": [{}]}]}]}
print(depth(tree))


def perms(items):
    if len(items) <= 1:
        return [items]
    return [[x] + p for i, x in enumerate(items) for p in perms(items[:i] + items[i + 1:])]


def merge_sort(a):
    if len(a) <= 1:
        return a
    m = len(a) // 2
    l, r = merge_sort(a[:m]), merge_sort(a[m:])
    out = []
    while l and r:
        out.append((l if l[0] <= r[0] else r).pop(0))
    return out + l + r


@functools.lru_cache(None)
def edit(a, b):
    if not a or not b:
        return len(a) + len(b)
    return min(edit(a[1:], b) + 1, edit(a, b[1:]) + 1, edit(a[1:], b[1:]) + (a[0] != b[0]))


print(perms([1, 2, 3]), merge_sort([5, 2, 9, 1, 5, 6]), edit("kitten", "sitting"), edit("paddle", "fluid"))
