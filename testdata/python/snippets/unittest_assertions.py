# unittest assertions run through a TextTestRunner on stdout: assertRaisesRegex, assertWarns, assertLogs, assertIsInstance, assertSequenceEqual failures.
import logging
import sys
import unittest
import warnings


class T(unittest.TestCase):
    def test_raises_regex(self):
        with self.assertRaisesRegex(ValueError, r"invalid literal"):
            int("x")

    def test_warns(self):
        with self.assertWarns(DeprecationWarning):
            warnings.warn("old", DeprecationWarning)

    def test_logs(self):
        with self.assertLogs("train", level="INFO") as cm:
            logging.getLogger("train").info("epoch %d", 1)
        self.assertEqual(cm.output, ["INFO:train:epoch 1"])

    def test_types(self):
        self.assertIsInstance(1.0, float)
        self.assertNotIsInstance(1, str)
        self.assertIs(None, None)

    def test_sequence_fails(self):
        self.assertSequenceEqual((1, 2, 3), (1, 2))

    def test_set_fails(self):
        self.assertSetEqual({1, 2}, {2, 3})


runner = unittest.TextTestRunner(stream=sys.stdout, verbosity=2)
result = runner.run(unittest.defaultTestLoader.loadTestsFromTestCase(T))
print(result.wasSuccessful(), len(result.failures))
