# classmethod and staticmethod: alternative constructors, call via class and instance, counting instances.
class Date:
    created = 0

    def __init__(self, y, m, d):
        self.y, self.m, self.d = y, m, d
        Date.created += 1

    @classmethod
    def from_string(cls, s):
        return cls(*map(int, s.split("-")))

    @staticmethod
    def is_leap(y):
        return y % 4 == 0 and (y % 100 != 0 or y % 400 == 0)

    def __repr__(self):
        return "%s(%04d-%02d-%02d)" % (type(self).__name__, self.y, self.m, self.d)


class MyDate(Date):
    pass


print(Date.from_string("2018-09-01"), MyDate.from_string("2019-1-2"))
print(Date.is_leap(2000), Date.is_leap(1900), Date(2020, 1, 1).is_leap(2024))
print(Date.created)
print(type(Date.__dict__["from_string"]).__name__, type(Date.__dict__["is_leap"]).__name__)
f = Date.from_string
print(f.__self__ is Date, Date.is_leap.__name__)
