# Assignment expressions in comprehensions bind in the enclosing function scope; in generator expressions too; with nonlocal-like effects.
def running_totals(values):
    total = 0
    out = [total := total + v for v in values]
    return out, total


print(running_totals([1, 2, 3, 4]))


def find_first_long(words):
    if any(len(found := w) > 4 for w in words):
        return found
    return None


print(find_first_long(["a", "abcdef", "xyzzyx"]), find_first_long(["a"]))
data = [("a", 3), ("b", 0), ("c", 5)]
print([name for name, n in data if (half := n / 2) > 1], half)
