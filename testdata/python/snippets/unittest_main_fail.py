# unittest.main() with failures and errors: the failure report (assertEqual diff, error traceback) on stderr, exit code 1.
import unittest


class TestBroken(unittest.TestCase):
    def test_equal(self):
        self.assertEqual([1, 2, 3], [1, 2, 4])

    def test_error(self):
        raise ValueError("boom")

    def test_ok(self):
        self.assertGreater(2, 1)

    def test_message(self):
        self.assertTrue(False, "custom message")


if __name__ == "__main__":
    unittest.main()
