# A bracket left open: the error points at it, as CPython 3.10+ does
# ("'(' was never closed"), not at the next line's first token.
import paddle.fluid as fluid

x = fluid.layers.fill_constant(shape=[1], dtype="int64", value=1
y = x + 1
