# __iter__ written as a generator method, reusable iterables, generators holding state across yields, iterating a tree.
class Tree:
    def __init__(self, value, *children):
        self.value = value
        self.children = children

    def __iter__(self):
        yield self.value
        for c in self.children:
            yield from c

    def depth_first(self, depth=0):
        yield depth, self.value
        for c in self.children:
            yield from c.depth_first(depth + 1)


t = Tree(1, Tree(2, Tree(4)), Tree(3))
print(list(t), list(t), sum(t), max(t), 4 in t)
for depth, v in t.depth_first():
    print("  " * depth + str(v))


def running_mean():
    total, n = 0.0, 0
    value = None
    while True:
        x = yield value
        total += x
        n += 1
        value = total / n


rm = running_mean()
next(rm)
print([rm.send(v) for v in [2, 4, 6, 8]])
