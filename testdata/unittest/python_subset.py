# The Python (README, "Python: the VM") that fluidc evaluates, as a unittest file whose
# output (stdout and stderr) the tests compare with CPython's. One test
# fails on purpose and one raises, to compare unittest's report too.
from __future__ import print_function

import collections
import functools
import math
import os
import sys
import time
import unittest


class Shape(object):
    sides = 0

    def __init__(self, name):
        self.name = name

    def describe(self):
        return "%s with %d sides" % (self.name, self.sides)

    @classmethod
    def kind(cls):
        return cls.__name__

    @staticmethod
    def unit():
        return 1


class Square(Shape):
    sides = 4

    def __init__(self, size):
        super(Square, self).__init__("square")
        self.size = size

    def area(self):
        return self.size * self.size


class Cube(Square):
    def __init__(self, size):
        super().__init__(size)
        self.name = "cube"

    def area(self):
        return 6 * super().area()


class MyError(ValueError):
    pass


def squares(n):
    for i in range(n):
        if i % 2 == 0:
            yield i * i


def risky(x):
    if x < 0:
        raise MyError("negative: %d" % x)
    return math.sqrt(x)


class TestClasses(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.shared = [1, 2]

    def setUp(self):
        self.cube = Cube(2)

    def tearDown(self):
        self.cube = None

    def test_inheritance(self):
        self.assertEqual(self.cube.area(), 24)
        self.assertEqual(self.cube.describe(), "cube with 4 sides")
        self.assertEqual(Square.kind(), "Square")
        self.assertEqual(Shape.unit(), 1)
        self.assertTrue(isinstance(self.cube, Shape))
        self.assertFalse(isinstance(Shape("x"), Square))
        self.assertIsInstance(self.cube, Square)
        self.assertEqual(self.shared, [1, 2])
        print("area", self.cube.area(), self.cube.sides, Shape.sides)

    def test_exceptions(self):
        log = []
        try:
            risky(-1)
        except (KeyError, MyError) as e:
            log.append("caught %s" % e)
        else:
            log.append("no error")
        finally:
            log.append("finally")
        try:
            {}["missing"]
        except KeyError:
            log.append("key")
        try:
            [1][3]
        except IndexError:
            log.append("index")
        try:
            raise RuntimeError("boom")
        except Exception as e:
            log.append(repr(e))
        with self.assertRaises(ValueError):
            risky(-2)
        self.assertRaises(ZeroDivisionError, lambda: 1 / 0)
        print(log)
        self.assertEqual(len(log), 5)

    def test_generators_and_loops(self):
        self.assertEqual(list(squares(7)), [0, 4, 16, 36])
        self.assertEqual(sum(x for x in range(5)), 10)
        self.assertEqual({k: k * k for k in range(3)}, {0: 0, 1: 1, 2: 4})
        self.assertEqual(sorted({x % 3 for x in range(10)}), [0, 1, 2])
        for i in range(3):
            if i == 5:
                break
        else:
            print("for-else ran")
        n = 0
        while n < 3:
            n += 1
        else:
            print("while-else ran", n)

    def test_modules(self):
        self.assertAlmostEqual(math.sqrt(2.0), 1.41421356, places=6)
        self.assertEqual(math.floor(2.7), 2)
        self.assertEqual(os.path.join("a", "b.py"), "a/b.py")
        self.assertEqual(os.path.splitext("x/y.txt"), ("x/y", ".txt"))
        self.assertEqual(os.path.basename("/a/b/c.py"), "c.py")
        add3 = functools.partial(lambda a, b: a + b, 3)
        self.assertEqual(add3(4), 7)
        self.assertEqual(functools.reduce(lambda a, b: a * b, [1, 2, 3, 4]), 24)
        d = collections.OrderedDict([("b", 1), ("a", 2)])
        self.assertEqual(list(d.keys()), ["b", "a"])
        # (its repr is 3.12's in the VM: a known difference)
        self.assertEqual(list(d.items()), [("b", 1), ("a", 2)])
        self.assertEqual(str(collections.OrderedDict()), "OrderedDict()")
        d.move_to_end("b")
        self.assertEqual(list(d), ["a", "b"])
        self.assertGreater(time.time(), 0)
        self.assertLessEqual(1, 1)
        self.assertIn("b", d)
        self.assertIsNone(None)
        self.assertNotEqual(1, 2)

    def test_defaultdict_and_varargs(self):
        groups = collections.defaultdict(list)
        for i, word in enumerate(["a", "b", "a"]):
            groups[word].append(i)
        self.assertEqual(sorted(groups.items()), [("a", [0, 2]), ("b", [1])])
        counts = collections.defaultdict(int)
        for ch in "hello":
            counts[ch] += 1
        self.assertEqual((counts["l"], counts["z"], len(counts)), (2, 0, 5))
        plain = collections.defaultdict(None)
        with self.assertRaises(KeyError):
            plain["missing"]

        def gather(first, *rest, **options):
            return first, rest, sorted(options.items())

        self.assertEqual(gather(1, 2, 3, b=2, a=1), (1, (2, 3), [("a", 1), ("b", 2)]))
        self.assertEqual(gather(*[5], **{"k": 0}), (5, (), [("k", 0)]))
        self.assertEqual(type(1.5).__name__, "float")
        self.assertTrue(type([]) == list)
        try:
            {}["key"]
        except KeyError as e:
            print("KeyError", e)

    def test_dict_constructor(self):
        base = {"b": 1, "a": 2}
        copy = dict(base)
        copy["c"] = 3
        self.assertEqual(list(copy.items()), [("b", 1), ("a", 2), ("c", 3)])
        self.assertEqual(len(base), 2)
        self.assertEqual(dict([("x", 1), ("y", 2)]), {"y": 2, "x": 1})
        self.assertEqual(dict(), {})
        with self.assertRaises(ValueError):
            dict([[1, 2, 3]])


class TestReport(unittest.TestCase):
    def test_almost(self):
        self.assertAlmostEqual(1.0, 1.25, delta=0.5)

    def test_fails(self):
        self.assertEqual(3, 4)

    def test_raises_uncaught(self):
        risky(-3)


if __name__ == '__main__':
    unittest.main()
