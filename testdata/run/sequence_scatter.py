# 1.x's sequence_scatter as a click model used it: per user (one row of
# a score table) a sequence of item ids and learned increments, added at
# those columns (an empty sequence leaves its row alone, a repeated id
# adds twice); SGD trains the increments and the base table through it.
import numpy as np
import paddle.fluid as fluid

base_in = fluid.layers.data(name='base', shape=[6], dtype='float32')
ids = fluid.layers.data(name='ids', shape=[1], dtype='int64', lod_level=1)
feat = fluid.layers.data(name='feat', shape=[2], dtype='float32', lod_level=1)
upd = fluid.layers.fc(input=feat, size=1, param_attr=fluid.ParamAttr(
    name='upd_w', initializer=fluid.initializer.Constant(0.5)),
    bias_attr=fluid.ParamAttr(name='upd_b', initializer=fluid.initializer.Constant(0.1)))
table = fluid.layers.fc(input=base_in, size=6, param_attr=fluid.ParamAttr(
    name='tab_w', initializer=fluid.initializer.Uniform(-0.3, 0.3, seed=6)))
out = fluid.layers.sequence_scatter(table, ids, upd)
loss = fluid.layers.reduce_mean(fluid.layers.square(out - 1.0))
fluid.optimizer.SGD(learning_rate=0.2).minimize(loss)
print(out.shape)


def show(v):
    return np.round(np.asarray(v, dtype='float64'), 4).tolist()


exe = fluid.Executor(fluid.CPUPlace())
exe.run(fluid.default_startup_program())
place = fluid.CPUPlace()
x = (np.arange(24, dtype='float32').reshape(4, 6) % 5) / 5.0
idv = np.array([[0], [1], [2], [5], [4], [3], [2], [1], [3], [2], [2]], dtype='int64')
fv = ((np.arange(22, dtype='float32').reshape(11, 2) % 7) - 3.0) / 4.0
lod = [[3, 5, 0, 3]]
for step in range(3):
    o, l, gu, gw = exe.run(feed={'base': x, 'ids': fluid.create_lod_tensor(idv, lod, place),
                                 'feat': fluid.create_lod_tensor(fv, lod, place)},
                           fetch_list=[out, loss, upd.name + '@GRAD', 'upd_w@GRAD'])
    print(step, show(l), show(o))
    print(show(gu.reshape(-1)), show(gw.reshape(-1)))
