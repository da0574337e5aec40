# Parametrized-style unittest: tests generated in a loop with setattr, subTest failures reported individually, assertEqual on floats with places.
import sys
import unittest


class Generated(unittest.TestCase):
    pass


def make_test(a, b, expected):
    def test(self):
        self.assertEqual(a + b, expected)
    return test


for i, (a, b, e) in enumerate([(1, 2, 3), (2, 2, 4), (0.1, 0.2, 0.3)]):
    setattr(Generated, "test_add_%d" % i, make_test(a, b, e))


class Sub(unittest.TestCase):
    def test_values(self):
        for v in [1, 2, 3, 4]:
            with self.subTest(v=v):
                self.assertNotEqual(v % 2, 0)

    def test_places(self):
        self.assertAlmostEqual(0.1 + 0.2, 0.3, places=7)


suite = unittest.TestSuite()
suite.addTests(unittest.defaultTestLoader.loadTestsFromTestCase(Generated))
suite.addTests(unittest.defaultTestLoader.loadTestsFromTestCase(Sub))
r = unittest.TextTestRunner(stream=sys.stdout, verbosity=2).run(suite)
print(r.testsRun, len(r.failures))
