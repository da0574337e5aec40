# Python control flow cannot test program variables: their values exist
# only when the program runs.
import paddle.fluid as fluid

x = fluid.layers.fill_constant(shape=[1], dtype='int64', value=3)
if x > 2:
    y = x + 1
while x:
    pass
for item in x:
    pass
