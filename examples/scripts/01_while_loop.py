# 01: a While loop. Sums 1..10 in the program itself: the loop runs in
# fluidc's runtime, not in Python. Run it:
#
#     fluidc run examples/scripts/01_while_loop.py
#
import paddle.fluid as fluid

# Loop state lives in program variables: a counter, a limit and a sum.
i = fluid.layers.fill_constant(shape=[1], dtype='int64', value=1)
limit = fluid.layers.fill_constant(shape=[1], dtype='int64', value=10)
total = fluid.layers.fill_constant(shape=[1], dtype='int64', value=0)

# The loop runs while `cond` is true; the body must update `cond` itself.
cond = fluid.layers.less_equal(x=i, y=limit)
loop = fluid.layers.While(cond=cond)
with loop.block():
    fluid.layers.assign(total + i, total)          # total += i
    fluid.layers.increment(x=i, value=1, in_place=True)
    fluid.layers.less_equal(x=i, y=limit, cond=cond)

exe = fluid.Executor(fluid.CPUPlace())
result, = exe.run(fetch_list=[total])
print("1 + 2 + ... + 10 =", result[0])
