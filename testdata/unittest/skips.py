# 2018 tests skip what needs a GPU: @unittest.skipIf on a class, skip,
# skipUnless, skipTest and SkipTest on methods; a failing test with a
# docstring shows its first line under the FAIL header, as CPython does.
import unittest
import paddle.fluid.core as core


@unittest.skipIf(not core.is_compiled_with_cuda(), "core is not compiled with CUDA")
class TestGPU(unittest.TestCase):
    def test_a(self):
        self.assertTrue(False)

    def test_b(self):
        pass


class TestCPU(unittest.TestCase):
    def test_doc(self):
        """Checks the sum.

        More text."""
        self.assertEqual(1 + 1, 3)

    @unittest.skip("not ready")
    def test_skipped(self):
        raise ValueError()

    @unittest.skipUnless(False, "needs something")
    def test_unless(self):
        raise ValueError()

    def test_skip_inside(self):
        self.skipTest("skipping at run time")
        raise ValueError()

    def test_raise_skip(self):
        raise unittest.SkipTest("raised")

    def test_ok(self):
        self.assertEqual(2, 2)


if __name__ == '__main__':
    unittest.main()
