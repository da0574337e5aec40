# Found by the passes generator: -O2 failed verification. reduce_sum's
# kernel sums int32 into int64 (as Paddle's does) while the variable is
# declared int32, so the folded fill_constant contradicted the declaration.
# fold_constants now leaves such an op to run time, and the front end
# declares the sum int64 as Paddle does; every level fetches 6.
import paddle.fluid as fluid
from paddle.fluid import layers

a = layers.fill_constant(shape=[3], dtype='int32', value=2)
s = layers.reduce_sum(a)
exe = fluid.Executor(fluid.CPUPlace())
exe.run(fluid.default_main_program(), fetch_list=[s])
