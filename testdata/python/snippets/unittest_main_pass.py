# unittest.main() with passing tests: the dots, "Ran N tests" (time normalized by the test) and OK go to stderr, exit code 0.
import unittest


class TestMath(unittest.TestCase):
    def setUp(self):
        self.values = [3, 1, 2]

    def test_sorted(self):
        self.assertEqual(sorted(self.values), [1, 2, 3])

    def test_sum(self):
        self.assertEqual(sum(self.values), 6)
        self.assertAlmostEqual(0.1 + 0.2, 0.3)

    def test_raises(self):
        with self.assertRaises(ZeroDivisionError):
            1 / 0
        self.assertRaises(KeyError, lambda: {}["k"])


class TestStrings(unittest.TestCase):
    def test_upper(self):
        self.assertTrue("abc".upper().isupper())
        self.assertIn("b", "abc")
        self.assertIsNone(None)


if __name__ == "__main__":
    unittest.main()
