# What changed between CPython 3.11 and 3.12 and shows in output: the reported version, OrderedDict's repr, sum() of floats,
# calendar's weekday enum, json's allow_nan message, abc's instantiation message, utcfromtimestamp's DeprecationWarning.
import abc
import calendar
import collections
import datetime
import json
import sys

print(sys.version_info[:2], sys.version_info >= (3, 12), sys.version.split()[0].rsplit(".", 1)[0], hex(sys.hexversion >> 16))
print(collections.OrderedDict([("b", 1), ("a", 2)]))
print(sum([0.1] * 10), sum([1e100, 1.0, -1e100]))
print(calendar.monthrange(2019, 2))
try:
    json.dumps(float("nan"), allow_nan=False)
except ValueError as e:
    print("ValueError:", e)


class Base(abc.ABC):
    @abc.abstractmethod
    def run(self):
        pass


try:
    Base()
except TypeError as e:
    print("TypeError:", e)
print(datetime.datetime.utcfromtimestamp(0))
