# __format__ for custom format specs, __index__ for use in slicing/range/hex/bin, __int__/__float__ conversions.
class Money:
    def __init__(self, cents):
        self.cents = cents

    def __format__(self, spec):
        if spec == "short":
            return "$%d" % (self.cents // 100)
        return format(self.cents / 100, spec or ".2f")

    def __int__(self):
        return self.cents // 100

    def __float__(self):
        return self.cents / 100


m = Money(12345)
print(f"{m}", f"{m:short}", "{:>10.1f}".format(m), format(m), int(m), float(m))


class Idx:
    def __init__(self, i):
        self.i = i

    def __index__(self):
        return self.i


i = Idx(2)
print("abcdef"[i], [0, 1, 2, 3][i:], list(range(Idx(4))), hex(Idx(255)), [1] * Idx(3), (1, 2, 3)[i])
import operator
print(operator.index(i), int(Idx(7).__index__()))
