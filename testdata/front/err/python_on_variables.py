# Python control flow cannot test a program's conditions: their values
# exist only when the program runs (other Variables are true, as in 1.x).
import paddle.fluid as fluid

x = fluid.layers.fill_constant(shape=[1], dtype='int64', value=3)
if x > 2:
    y = x + 1
while x < 5:
    pass
for item in x:
    pass
