# A unittest file in the style of Paddle's 2018 test_concurrency.py
# (written for fluidc's tests): each test builds its own program under
# program_guard, runs it and checks the fetched values. Ping-pong uses the
# early-2018 channel forms: channel_send of a Python value, channel_recv
# without an output variable.
from __future__ import print_function

import unittest

import numpy
import paddle.fluid as fluid
import paddle.fluid.core as core
from paddle.fluid.executor import Executor

INT64 = core.VarDesc.VarType.INT64
FP64 = core.VarDesc.VarType.FP64


class TestRoutineOp(unittest.TestCase):
    def setUp(self):
        self.main = fluid.Program()
        self.startup = fluid.Program()
        self.exe = Executor(fluid.CPUPlace())

    def run_program(self, fetch):
        self.exe.run(self.startup)
        return self.exe.run(self.main, fetch_list=fetch)

    def test_simple_routine(self):
        with fluid.program_guard(self.main, self.startup):
            ch = fluid.make_channel(dtype=core.VarDesc.VarType.LOD_TENSOR)
            with fluid.Go():
                value = fluid.layers.fill_constant(shape=[1], dtype=FP64, value=1234)
                fluid.channel_send(ch, value)
            result = fluid.layers.fill_constant(shape=[1], dtype=FP64, value=0)
            result, status = fluid.channel_recv(ch, result)
            fluid.channel_close(ch)
        outs = self.run_program([result])
        self.assertEqual(outs[0][0], 1234)

    def test_daisy_chain(self):
        n = 20
        with fluid.program_guard(self.main, self.startup):
            leftmost = fluid.make_channel(dtype=core.VarDesc.VarType.LOD_TENSOR)
            left = leftmost
            for i in range(n):
                right = fluid.make_channel(dtype=core.VarDesc.VarType.LOD_TENSOR)
                with fluid.Go():
                    one = fluid.layers.ones(shape=[1], dtype='int64')
                    one.stop_gradient = True
                    got = fluid.layers.fill_constant(shape=[1], dtype='int64', value=0)
                    got, status = fluid.channel_recv(right, got)
                    fluid.channel_send(left, fluid.layers.elementwise_add(x=one, y=got))
                left = right
            with fluid.Go():
                one = fluid.layers.ones(shape=[1], dtype='int64')
                fluid.channel_send(right, one)
            result = fluid.layers.fill_constant(shape=[1], dtype='int64', value=0)
            result, status = fluid.channel_recv(leftmost, result)
        outs = self.run_program([result])
        self.assertEqual(int(outs[0][0]), n + 1)

    def test_ping_pong(self):
        with fluid.program_guard(self.main, self.startup):
            pings = fluid.make_channel(dtype=bool, capacity=1)
            pongs = fluid.make_channel(dtype=core.VarDesc.VarType.LOD_TENSOR, capacity=1)
            msg = fluid.layers.fill_constant(shape=[1], dtype=FP64, value=9)
            result = fluid.layers.fill_constant(shape=[1], dtype=FP64, value=0)

            def ping(ch):
                fluid.channel_send(ch, True)

            def pong(ch1, ch2):
                pinged = fluid.channel_recv(ch1)
                fluid.channel_send(ch2, msg, is_copy=True)
                return pinged

            ping(pings)
            pinged = pong(pings, pongs)
            fluid.channel_recv(pongs, result)
            fluid.channel_close(pings)
            fluid.channel_close(pongs)
        outs = self.run_program([result, pinged])
        self.assertAlmostEqual(float(outs[0][0]), 9.0, places=6)
        self.assertTrue(bool(outs[1][0]))


class TestSelect(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.place = fluid.CPUPlace()

    def test_select_send(self):
        main, startup = fluid.Program(), fluid.Program()
        with fluid.program_guard(main, startup):
            ch1 = fluid.make_channel(dtype=core.VarDesc.VarType.LOD_TENSOR, capacity=1)
            result1 = fluid.layers.fill_constant(shape=[1], dtype=FP64, value=10)
            default_hit = fluid.layers.fill_constant(shape=[1], dtype='bool', value=False)
            with fluid.Select() as select:
                with select.case(fluid.channel_send, ch1, result1):
                    pass
                with select.default():
                    fluid.layers.assign(
                        fluid.layers.fill_constant(shape=[1], dtype='bool', value=True),
                        default_hit)
            result2 = fluid.layers.fill_constant(shape=[1], dtype=FP64, value=0)
            result2, status = fluid.channel_recv(ch1, result2)
            fluid.channel_close(ch1)
        exe = Executor(self.place)
        exe.run(startup)
        got, hit = exe.run(main, fetch_list=[result2, default_hit])
        self.assertEqual(got[0], 10)
        self.assertFalse(hit[0])

    def test_fibonacci(self):
        main, startup = fluid.Program(), fluid.Program()
        with fluid.program_guard(main, startup):
            quit_value = fluid.layers.create_global_var(
                shape=[1], value=0, dtype=core.VarDesc.VarType.INT32, persistable=True)
            result = fluid.layers.create_global_var(
                shape=[1], value=0, dtype=core.VarDesc.VarType.INT32, persistable=True)
            ch = fluid.make_channel(dtype=core.VarDesc.VarType.LOD_TENSOR)
            quit_ch = fluid.make_channel(dtype=core.VarDesc.VarType.LOD_TENSOR)
            x = fluid.layers.fill_constant(shape=[1], dtype=core.VarDesc.VarType.INT32, value=0)
            y = fluid.layers.fill_constant(shape=[1], dtype=core.VarDesc.VarType.INT32, value=1)
            x_tmp = fluid.layers.fill_constant(shape=[1], dtype=core.VarDesc.VarType.INT32, value=0)
            going = fluid.layers.fill_constant(shape=[1], dtype=core.VarDesc.VarType.BOOL, value=True)
            with fluid.Go():
                for i in xrange(10):
                    fluid.channel_recv(ch, result)
                fluid.channel_send(quit_ch, quit_value)
            loop = fluid.layers.While(cond=going)
            with loop.block():
                got = fluid.layers.fill_constant(shape=[1], dtype=core.VarDesc.VarType.INT32, value=0)
                with fluid.Select() as select:
                    with select.case(fluid.channel_send, ch, x, is_copy=True):
                        fluid.layers.assign(input=x, output=x_tmp)
                        fluid.layers.assign(input=y, output=x)
                        fluid.layers.assign(fluid.layers.elementwise_add(x=x_tmp, y=y), output=y)
                    with select.case(fluid.channel_recv, quit_ch, got):
                        stop = fluid.layers.fill_constant(shape=[1], dtype=core.VarDesc.VarType.BOOL, value=False)
                        fluid.layers.assign(input=stop, output=going)
            fluid.channel_close(ch)
            fluid.channel_close(quit_ch)
        exe = Executor(self.place)
        exe.run(startup)
        outs = exe.run(main, fetch_list=[result])
        self.assertEqual(outs[0][0], 34)


class TestPython(unittest.TestCase):
    def test_raises(self):
        with self.assertRaises(ZeroDivisionError):
            1 / 0
        self.assertIn(3, [1, 2, 3])
        self.assertIsNone(None)


if __name__ == '__main__':
    unittest.main()
