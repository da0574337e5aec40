# Counting with nested While loops: total += 0.5 for each (j, i) pair.
import paddle.fluid as fluid

rows = fluid.layers.fill_constant(shape=[1], dtype='int64', value=3)
cols = fluid.layers.fill_constant(shape=[1], dtype='int64', value=4)
j = fluid.layers.zeros(shape=[1], dtype='int64')
total = fluid.layers.fill_constant(shape=[1], dtype='float32', value=0.0)
step = fluid.layers.fill_constant(shape=[1], dtype='float32', value=0.5)

outer_cond = fluid.layers.less_than(x=j, y=rows)
outer = fluid.layers.While(cond=outer_cond)
with outer.block():
    i = fluid.layers.zeros(shape=[1], dtype='int64')
    inner_cond = fluid.layers.less_than(x=i, y=cols)
    inner = fluid.layers.While(cond=inner_cond)
    with inner.block():
        new_total = fluid.layers.elementwise_add(total, step)
        fluid.layers.assign(new_total, total)
        fluid.layers.increment(i)
        fluid.layers.less_than(x=i, y=cols, cond=inner_cond)
    fluid.layers.increment(j)
    fluid.layers.less_than(x=j, y=rows, cond=outer_cond)

doubled = total * 2

exe = fluid.Executor(fluid.CPUPlace())
result = exe.run(fetch_list=[total, doubled, j])
