# A ConditionalBlock writing an outer variable: out = 2 * x if x > 0 else -1.
import numpy as np
import paddle.fluid as fluid

x = fluid.data(name='x', shape=[1], dtype='float32')
zero = fluid.layers.fill_constant(shape=[1], dtype='float32', value=0.0)
out = fluid.layers.fill_constant(shape=[1], dtype='float32', value=-1.0)

is_positive = fluid.layers.greater_than(x, zero)
block = fluid.layers.ConditionalBlock([is_positive], is_scalar_condition=True)
with block.block():
    doubled = fluid.layers.scale(x, scale=2.0)
    fluid.layers.assign(doubled, out)

exe = fluid.Executor(fluid.CPUPlace())
res = exe.run(fluid.default_main_program(),
              feed={'x': np.array([3.0], dtype='float32')},
              fetch_list=[out])
