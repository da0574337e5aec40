# unittest.main() exits with code 1 after a failing test; the failure report is on stderr.
import unittest


class T(unittest.TestCase):
    def test_fail(self):
        self.assertEqual(1 + 1, 3)


unittest.main()
