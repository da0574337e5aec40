# unittest: skipping a whole class, skipTest inside a test, unexpected success, errors in setUp, with the summary on stdout.
import sys
import unittest


@unittest.skip("whole class skipped")
class Skipped(unittest.TestCase):
    def test_never(self):
        raise AssertionError


class Mixed(unittest.TestCase):
    def test_skip_inside(self):
        self.skipTest("decided at runtime")

    @unittest.expectedFailure
    def test_unexpected_success(self):
        self.assertTrue(True)

    def test_pass(self):
        self.assertEqual("a" * 2, "aa")


class BrokenSetUp(unittest.TestCase):
    def setUp(self):
        raise RuntimeError("setUp failed")

    def test_x(self):
        pass


loader = unittest.TestLoader()
suite = unittest.TestSuite([loader.loadTestsFromTestCase(c) for c in (Skipped, Mixed, BrokenSetUp)])
r = unittest.TextTestRunner(stream=sys.stdout, verbosity=2).run(suite)
print(r.testsRun, len(r.skipped), len(r.errors), len(r.unexpectedSuccesses), r.wasSuccessful())
