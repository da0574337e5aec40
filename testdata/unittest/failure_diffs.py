# Failing assertions on purpose: unittest prints each failure as CPython
# 3.11 does (`Lists differ`, the first differing element, the ndiff of the
# pprint-ed values, shortened reprs, maxDiff), so a user comparing fluidc's
# report with Python's sees the same text.
import unittest

import numpy as np
import paddle.fluid as fluid


def run_double(values):
    x = fluid.layers.data(name='x', shape=[len(values)], dtype='float32',
                          append_batch_size=False)
    y = fluid.layers.scale(x, scale=2.0)
    exe = fluid.Executor(fluid.CPUPlace())
    out, = exe.run(feed={'x': np.array(values, dtype='float32')},
                   fetch_list=[y])
    return out.tolist()


class TestDiffs(unittest.TestCase):
    def test_fetched_list(self):
        self.assertEqual(run_double([1, 2, 3]), [2.0, 4.0, 7.0])

    def test_tuple_longer(self):
        self.assertEqual((1, 2, 3, 4), (1, 2))

    def test_list_equal_shorter(self):
        self.assertListEqual([0.5], [0.5, 'x', None])

    def test_dict(self):
        self.assertEqual({'b': 1, 'a': [1, 2]}, {'a': [1, 3], 'b': 1})

    def test_string(self):
        self.assertEqual('hello world', 'hello wxrld')

    def test_multiline_string(self):
        self.assertEqual('a\nb\nc\n', 'a\nB\nc\nd\n')

    def test_long_list_one_item_a_line(self):
        self.assertEqual(list(range(40)), list(range(39)) + [100])

    def test_long_reprs_shortened(self):
        self.assertEqual(1.5, 'q' * 120)

    def test_sequence_equal(self):
        self.assertSequenceEqual([1, 2], (1, 2))
        self.assertSequenceEqual([1, 2], (1, 3))

    def test_nested(self):
        # (one line: the VM reports a call that spans lines at its last
        # line in unittest's tracebacks, a known difference)
        first = [[1, 2], [3, 4], {'k': 'v' * 30}, 'abcdefghij' * 3]
        self.assertEqual(first, [[1, 2], [3, 5], {'k': 'v' * 30}, 'abcdefghij' * 3])

    def test_with_msg(self):
        self.assertEqual([1], [2], 'shapes of the outputs')

    def test_list_and_tuple(self):
        self.assertEqual([1, 2], (1, 2))

    def test_almost_equal_float32(self):
        # numpy 2: a Python float minus a float32 is a float32.
        self.assertAlmostEqual(0.6597539553864471, np.float32(0.6597539), places=7)

    def test_diff_too_long(self):
        self.assertEqual(list(range(60)), list(range(1, 61)))


class TestNoMaxDiff(unittest.TestCase):
    maxDiff = None

    def test_diff_in_full(self):
        self.assertEqual(list(range(60)), list(range(1, 61)))


if __name__ == '__main__':
    unittest.main()
