# 1.6's layers.scatter: a memory table whose rows at some ids are replaced
# by fresh fc projections (overwrite, the last one winning for a repeated
# id) or set to their sum (overwrite=False), trained for a few steps; the
# gradients of the table and of the updates are fetched as 1.x made them.
import numpy as np
import paddle.fluid as fluid

fluid.default_startup_program().random_seed = 7
table = fluid.layers.data(name='table', shape=[5, 3], dtype='float32', append_batch_size=False)
table.stop_gradient = False
feat = fluid.layers.data(name='feat', shape=[4], dtype='float32')
ids = fluid.layers.data(name='ids', shape=[1], dtype='int64')
flat_ids = fluid.layers.reshape(ids, shape=[-1])
upd = fluid.layers.fc(input=feat, size=3, act='tanh')
kept = fluid.layers.scatter(table, flat_ids, upd)
summed = fluid.layers.scatter(table, flat_ids, upd, overwrite=False)
print(kept.shape, summed.shape)
weight = fluid.layers.assign(np.linspace(0.5, 2.0, 15).reshape(5, 3).astype('float32'))
loss = fluid.layers.reduce_sum(fluid.layers.elementwise_mul(kept + summed * 0.5, weight))
fluid.optimizer.SGD(learning_rate=0.05).minimize(loss)
block = fluid.default_main_program().global_block()

exe = fluid.Executor(fluid.CPUPlace())
exe.run(fluid.default_startup_program())
feed = {'table': np.arange(15).reshape(5, 3).astype('float32') / 10,
        'feat': np.linspace(-1, 1, 16).reshape(4, 4).astype('float32'),
        'ids': np.array([[3], [0], [3], [4]]).astype('int64')}
for step in range(3):
    l, k, s, g_table, g_upd = exe.run(feed=feed, fetch_list=[
        loss, kept, summed, block.var('table@GRAD'), block.var(upd.name + '@GRAD')])
    print(step, np.round(l, 4).tolist())
print(np.round(k, 5).tolist())
print(np.round(s, 5).tolist())
print(np.round(g_table, 5).tolist())
print(np.round(g_upd, 5).tolist())

# int32 ids and an integer table, in a program of its own.
prog, start = fluid.Program(), fluid.Program()
with fluid.program_guard(prog, start):
    counts = fluid.layers.data(name='counts', shape=[2], dtype='int64')
    where = fluid.layers.data(name='where', shape=[2], dtype='int32', append_batch_size=False)
    extra = fluid.layers.data(name='extra', shape=[2], dtype='int64')
    a = fluid.layers.scatter(counts, where, extra)
    b = fluid.layers.scatter(counts, where, extra, overwrite=False)
r = exe.run(prog, feed={'counts': np.arange(8).reshape(4, 2).astype('int64'),
                        'where': np.array([2, 2]).astype('int32'),
                        'extra': np.array([[10, 20], [30, 40]]).astype('int64')},
            fetch_list=[a, b])
print([x.tolist() for x in r], [x.dtype for x in r])
