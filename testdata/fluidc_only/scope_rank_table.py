# Paddle 1.x's DynamicRNN ops left in the scope, read back as 2018's
# test_lod_rank_table and test_lod_tensor_array_ops read them: a
# persistable lod_rank_table gives `get_lod_rank_table().items()`, the
# (sequence index, length) pairs longest first (a stable sort: ties keep
# their order), and a persistable lod_tensor_to_array gives one LoDTensor
# per time step holding the rows of the sequences still running, in rank
# order. fluidc only: Paddle 3.3.1 dropped these ops. Checked against the
# same arithmetic in numpy.
import numpy as np
import paddle.fluid as fluid
import paddle.fluid.layers as layers

x = layers.data(name='x', shape=[1], dtype='float32', lod_level=1)
table = layers.lod_rank_table(x, level=0)
array = layers.lod_tensor_to_array(x, table)
table.persistable = True
array.persistable = True

lengths = [2, 3, 1, 3]
rows = np.arange(sum(lengths), dtype='float32').reshape(-1, 1)
tensor = fluid.create_lod_tensor(rows, [lengths], fluid.CPUPlace())
exe = fluid.Executor(fluid.CPUPlace())
exe.run(fluid.default_startup_program())
exe.run(feed={'x': tensor}, fetch_list=[])

scope = fluid.global_scope()
items = scope.find_var(table.name).get_lod_rank_table().items()
want = sorted(enumerate(lengths), key=lambda p: -p[1])
assert items == want, (items, want)

starts = np.cumsum([0] + lengths)
steps = scope.find_var(array.name).get_lod_tensor_array()
assert len(steps) == max(lengths), len(steps)
for t, step in enumerate(steps):
    expect = [rows[starts[k] + t, 0] for k, n in want if n > t]
    got = np.array(step).reshape(-1).tolist()
    assert got == expect, (t, got, expect)
print('ok')
