# Container dunders: __len__, __getitem__ (ints and slices), __setitem__, __delitem__, __contains__, __reversed__.
class Row:
    def __init__(self, *values):
        self._v = list(values)

    def __len__(self):
        return len(self._v)

    def __getitem__(self, i):
        if isinstance(i, slice):
            return Row(*self._v[i])
        return self._v[i]

    def __setitem__(self, i, value):
        self._v[i] = value

    def __delitem__(self, i):
        del self._v[i]

    def __contains__(self, x):
        print("contains", x)
        return x in self._v

    def __repr__(self):
        return "Row%r" % (tuple(self._v),)


r = Row(1, 2, 3, 4, 5)
print(len(r), r[0], r[-1], r[1:3], r[::2])
r[0] = 10
del r[1]
print(r, 3 in r, 99 in r)
print(list(r), list(reversed(r)))
try:
    r[10]
except IndexError as e:
    print("IndexError")


class Squares:
    """Only __getitem__: iteration falls back to the sequence protocol."""

    def __getitem__(self, i):
        if i >= 4:
            raise IndexError(i)
        return i * i


print(list(Squares()), 9 in Squares(), 5 in Squares())
