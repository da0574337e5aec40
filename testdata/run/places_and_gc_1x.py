# Paddle 1.4-1.5 scripts and tests: the eager-deletion switch set before
# building (a memory setting), and places compared by their kind.
import numpy as np
import paddle.fluid as fluid
import paddle.fluid.core as core

core._set_eager_deletion_mode(0.0, 1.0, True)
x = fluid.layers.data(name='x', shape=[3], dtype='float32')
y = fluid.layers.scale(x, scale=2.0)
exe = fluid.Executor(fluid.CPUPlace())
print(exe.run(feed={'x': np.ones([2, 3], 'float32')}, fetch_list=[y])[0].tolist())
place = fluid.CPUPlace()
print(place._type() == fluid.CPUPlace()._type(), place._type() == core.CPUPlace()._type())
