# Python numbers on the left of Variable operators: Python calls the reflected method.
import paddle.fluid as fluid

x = fluid.layers.fill_constant(shape=[2, 3], dtype='float32', value=4.0)

inv = 1.0 / x          # __rtruediv__: an x-shaped constant, then elementwise_div(const, x)
shifted = 2 + x        # __radd__: scale(bias=2)
flipped = 1 - x        # __rsub__: scale(-1, bias=1)
twice = 2 * x          # __rmul__: scale(2)
is_small = 3.0 > x     # Python asks x.__lt__(3.0): less_than(x, const)
is_big = 5.0 <= x      # Python asks x.__ge__(5.0): greater_equal(x, const)

exe = fluid.Executor(fluid.CPUPlace())
out = exe.run(fluid.default_main_program(),
              fetch_list=[inv, shifted, flipped, twice, is_small, is_big])
