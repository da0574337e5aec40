# The iterator protocol: __iter__/__next__, StopIteration, for loops, iter().
class Countdown:
    def __init__(self, start):
        self.n = start

    def __iter__(self):
        return self

    def __next__(self):
        if self.n <= 0:
            raise StopIteration
        self.n -= 1
        return self.n + 1


print(list(Countdown(5)))
it = Countdown(2)
print(next(it), next(it), next(it, "done"))
for x in Countdown(3):
    print("x =", x)


class Range2:
    """An iterable (not an iterator): each iter() starts again."""

    def __init__(self, n):
        self.n = n

    def __iter__(self):
        return iter(range(0, self.n, 2))


r = Range2(7)
print(list(r), list(r), sum(r), 4 in r, 5 in r)
print(sorted(Countdown(4)), max(Countdown(6)), tuple(zip(Countdown(3), Range2(10))))
