# One error for one failed value (`fluidc check`): the misspelt layer is
# reported, and fetching its result is no second error.
import numpy as np
import paddle.fluid as fluid

x = fluid.layers.data(name='x', shape=[1], dtype='float32')
y = fluid.layers.elementwize_add(x, x)
exe = fluid.Executor(fluid.CPUPlace())
out = exe.run(fluid.default_main_program(), feed={'x': np.ones((1, 1), 'float32')}, fetch_list=[y])
