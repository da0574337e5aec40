# A Switch whose case condition calls a misspelt layer: one error, at the
# misspelling, and none for the default that follows the failed case.
import paddle.fluid as fluid

x = fluid.layers.fill_constant(shape=[1], dtype='float32', value=1.0)
one = fluid.layers.fill_constant(shape=[1], dtype='float32', value=1.0)
out = fluid.layers.fill_constant(shape=[1], dtype='float32', value=0.0)
with fluid.layers.Switch() as switch:
    with switch.case(fluid.layers.less_thn(x, one)):
        fluid.layers.assign(one, out)
    with switch.default():
        fluid.layers.assign(x, out)
