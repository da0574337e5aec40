# A fold computes what the kernel computes: casting a float32 too large for
# int32 gives the kernel's result (folding must not wrap it through int64).
import paddle.fluid as fluid

big = fluid.layers.fill_constant(shape=[1], dtype='float32', value=1e20)
c = fluid.layers.cast(big, 'int32')

exe = fluid.Executor(fluid.CPUPlace())
exe.run(fetch_list=[c])
