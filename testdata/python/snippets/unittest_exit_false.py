# unittest.main(exit=False, argv=[...]) keeps running after the tests; a failing assertion's message format on stderr.
import unittest


class T(unittest.TestCase):
    def test_almost(self):
        self.assertAlmostEqual(1.0, 1.1, places=3)

    def test_multiline(self):
        self.assertEqual("line1\nline2\n", "line1\nline3\n")

    def test_pass(self):
        self.assertNotEqual(1, 2)


prog = unittest.main(argv=["prog"], exit=False)
print("after main", prog.result.testsRun, len(prog.result.failures), prog.result.wasSuccessful())
