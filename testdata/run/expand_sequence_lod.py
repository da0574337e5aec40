# gru4rec's negative sampling (PaddlePaddle/models, 2019): each step's GRU
# output is tiled k times with `expand` and cut back into rows with
# `sequence_reshape`, which needs the sequences' LoD to survive `expand`
# (1.x kept it when dim 0 was not tiled).
import numpy as np
import paddle.fluid as fluid

k = 3
x = fluid.layers.data(name='x', shape=[2], dtype='float32', lod_level=1)
tiled = fluid.layers.expand(x=x, expand_times=[1, k])
rows = fluid.layers.sequence_reshape(input=tiled, new_dim=2)
pooled = fluid.layers.sequence_pool(rows, pool_type='sum')
exe = fluid.Executor(fluid.CPUPlace())
exe.run(fluid.default_startup_program())
data = np.arange(10, dtype='float32').reshape(5, 2)
t = fluid.create_lod_tensor(data, [[3, 2]], fluid.CPUPlace())
e, r, p = exe.run(feed={'x': t}, fetch_list=[tiled, rows, pooled], return_numpy=False)
print(np.array(e).shape, e.lod())
print(np.array(r).shape, r.lod())
print(np.array(p).tolist())
