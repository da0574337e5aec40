# 1.6's unique, as recommenders and word-level models used it: the distinct
# ids of a batch in the order they first appear, and where each id went,
# to gather one embedding row per distinct id and spread it back.
import numpy as np
import paddle.fluid as fluid

ids = fluid.layers.data(name='ids', shape=[7], dtype='int64', append_batch_size=False)
vals = fluid.layers.data(name='vals', shape=[6], dtype='float32', append_batch_size=False)
uniq, where = fluid.layers.unique(ids)
uniq64, where64 = fluid.layers.unique(ids, dtype='int64')
funiq, fwhere = fluid.layers.unique(vals)
emb = fluid.layers.embedding(fluid.layers.reshape(uniq, [-1, 1]), size=[10, 2],
                             param_attr=fluid.ParamAttr(initializer=fluid.initializer.NumpyArrayInitializer(
                                 np.arange(20, dtype='float32').reshape(10, 2))))
back = fluid.layers.gather(emb, where)
exe = fluid.Executor(fluid.CPUPlace())
exe.run(fluid.default_startup_program())
feed = {'ids': np.array([5, 3, 5, 9, 3, 0, 5], dtype='int64'),
        'vals': np.array([1.5, -0.0, 0.0, 2.5, 1.5, -3.0], dtype='float32')}
for v in exe.run(feed=feed, fetch_list=[uniq, where, uniq64, where64, funiq, fwhere, back]):
    print(v.dtype, v.shape, v.tolist())
