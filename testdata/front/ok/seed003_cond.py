# Seed 003's three-block program: out = 1 if x < y else 0.
import paddle.fluid as fluid

x = fluid.data(name='x', shape=[1], dtype='int64')  # block 0
y = fluid.data(name='y', shape=[1], dtype='int64')  # block 0

def true_block():
    return fluid.layers.fill_constant(dtype='int64', value=1, shape=[1])  # block 1

def false_block():
    return fluid.layers.fill_constant(dtype='int64', value=0, shape=[1])  # block 2

condition = fluid.layers.less_than(x, y)  # block 0

out = fluid.layers.cond(condition, true_block, false_block)  # block 0

exe = fluid.Executor(fluid.CPUPlace())
exe.run(feed={'x': [1], 'y': [2]}, fetch_list=[out])
