# The LoD of a beam-search decoder's state (2019's transformer fast_decode)
# survives the ops between its reads: an in-place reshape of a value read
# from a tensor array, matmul against a weight (1.x shares X's LoD) and pad
# (which keeps it while the rows stay).
import numpy as np
import paddle.fluid as fluid

layers = fluid.layers
ids = layers.data(name='ids', shape=[1], dtype='int64', lod_level=2)
feat = layers.data(name='feat', shape=[3], dtype='float32', lod_level=1)
w = layers.data(name='w', shape=[3, 2], dtype='float32', append_batch_size=False)
i = layers.fill_constant(shape=[1], dtype='int64', value=0)
arr = layers.array_write(layers.reshape(ids, (-1, 1)), i)
pre_ids = layers.array_read(array=arr, i=i)
copy = layers.reshape(pre_ids, (-1, 1, 1))
inplace = layers.reshape(layers.array_read(array=arr, i=i), (-1, 1, 1), inplace=True)
proj = layers.matmul(feat, w)
padded = layers.pad(feat, [0, 0, 0, 1], pad_value=-1.0)
exe = fluid.Executor(fluid.CPUPlace())
place = fluid.CPUPlace()
feed = {
    'ids': fluid.create_lod_tensor(np.array([[4], [7]], dtype='int64'), [[1, 1], [1, 1]], place),
    'feat': fluid.create_lod_tensor(np.arange(12, dtype='float32').reshape(4, 3), [[1, 3]], place),
    'w': np.ones([3, 2], dtype='float32'),
}
outs = exe.run(feed=feed, fetch_list=[pre_ids, copy, inplace, proj, padded], return_numpy=False)
for name, t in zip(['array_read', 'reshape', 'reshape inplace', 'matmul', 'pad'], outs):
    print(name, t.lod(), np.array(t).reshape(-1).tolist()[:6])
