# A closing bracket that does not match its opener, on another line.
import paddle.fluid as fluid

x = fluid.layers.fill_constant(shape=[1,
                               2), dtype="int64", value=1)
