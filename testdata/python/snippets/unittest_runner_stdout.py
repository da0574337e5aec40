# unittest run programmatically: TextTestRunner(stream=sys.stdout, verbosity=2), subTest, skip decorators, setUpClass, result counts.
import sys
import unittest


class TestFeatures(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        print("setUpClass")

    @classmethod
    def tearDownClass(cls):
        print("tearDownClass")

    def tearDown(self):
        print("tearDown", self._testMethodName)

    def test_subtests(self):
        for i in range(3):
            with self.subTest(i=i):
                self.assertLess(i, 5)

    @unittest.skip("not today")
    def test_skipped(self):
        pass

    @unittest.skipIf(sys.platform.startswith("linux"), "linux")
    def test_skip_if(self):
        pass

    @unittest.expectedFailure
    def test_expected_failure(self):
        self.assertEqual(1, 2)

    def test_dict(self):
        self.assertDictEqual({"a": 1}, {"a": 1})
        self.assertCountEqual([1, 2, 2], [2, 1, 2])


suite = unittest.TestLoader().loadTestsFromTestCase(TestFeatures)
result = unittest.TextTestRunner(stream=sys.stdout, verbosity=2).run(suite)
print(result.testsRun, len(result.failures), len(result.errors), len(result.skipped), len(result.expectedFailures), result.wasSuccessful())
