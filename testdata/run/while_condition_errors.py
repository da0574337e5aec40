# A While condition must be one bool, as 1.x's unit tests check it with
# assertRaises(TypeError): a condition of two elements, a float64 one; a
# [1] bool condition builds and runs.
from __future__ import print_function

import unittest

import numpy
import paddle.fluid as fluid
import paddle.fluid.layers as layers


class TestWhileCondition(unittest.TestCase):
    def test_rejected(self):
        with fluid.program_guard(fluid.Program(), fluid.Program()):
            i = layers.zeros(shape=[2], dtype='int64')
            limit = layers.fill_constant(shape=[2], dtype='int64', value=1)
            cond = layers.less_than(x=i, y=limit)
            with self.assertRaises(TypeError):
                layers.While(cond=cond)
            with self.assertRaises(TypeError):
                layers.While(cond=layers.cast(cond, dtype='float64'))

    def test_counts(self):
        main = fluid.Program()
        with fluid.program_guard(main, fluid.Program()):
            i = layers.zeros(shape=[1], dtype='int64')
            limit = layers.fill_constant(shape=[1], dtype='int64', value=4)
            cond = layers.less_than(x=i, y=limit)
            loop = layers.While(cond=cond)
            with loop.block():
                layers.increment(x=i, in_place=True)
                layers.less_than(x=i, y=limit, cond=cond)
        out, = fluid.Executor(fluid.CPUPlace()).run(main, fetch_list=[i])
        print('counted to', out.tolist())
        self.assertEqual(numpy.array(out).tolist(), [4])


if __name__ == '__main__':
    unittest.main()
