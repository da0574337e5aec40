# An integer division by zero is a run-time error in Paddle's kernel, so it
# is not folded: the error stays where the program runs.
import paddle.fluid as fluid

a = fluid.layers.fill_constant(shape=[3], dtype='int64', value=-7)
zero = fluid.layers.fill_constant(shape=[1], dtype='int64', value=0)
kept = fluid.layers.elementwise_div(a, zero)

exe = fluid.Executor(fluid.CPUPlace())
exe.run(fetch_list=[kept])
