# print(program) prints what Paddle 3.3.1 prints: every block under its
# block_idx header, with the slots, defaults and stop_gradient flags
# Paddle gives the ops and variables.
import paddle.fluid as fluid
i = fluid.layers.fill_constant(shape=[1], dtype='int64', value=0)
n = fluid.layers.fill_constant(shape=[1], dtype='int64', value=3)
c = fluid.layers.less_than(i, n)
w = fluid.layers.While(cond=c)
with w.block():
    fluid.layers.increment(i, in_place=True)
    fluid.layers.less_than(i, n, cond=c)
print(fluid.default_main_program())
print("end")
