# fluid.layers.hash (1.4-1.6) as text-matching models used it: n-gram ids
# of a LoD batch hashed into a bucket range, then embedded and pooled.
import numpy as np
import paddle.fluid as fluid

words = fluid.layers.data(name='words', shape=[2], dtype='int64', lod_level=1)
ids32 = fluid.layers.data(name='ids32', shape=[3], dtype='int32')
bigrams = fluid.layers.hash(words, hash_size=1000, num_hash=3)
small = fluid.layers.hash(ids32, hash_size=17)
print(bigrams.shape, small.shape)
emb = fluid.layers.embedding(fluid.layers.reshape(bigrams, [-1, 1]), size=[1000, 4],
                             param_attr=fluid.ParamAttr(initializer=fluid.initializer.Constant(0.5)))
pooled = fluid.layers.reduce_sum(emb)

exe = fluid.Executor(fluid.CPUPlace())
exe.run(fluid.default_startup_program())
place = fluid.CPUPlace()
w = fluid.create_lod_tensor(np.array([[1, 2], [2, 3], [3, 4], [7, 7], [123456789, -5]], dtype='int64'),
                            [[3, 2]], place)
out, out_small, total = exe.run(feed={'words': w,
                                      'ids32': np.array([[1, 2, 3], [0, 0, 0]], dtype='int32')},
                                fetch_list=[bigrams, small, pooled], return_numpy=False)
print(np.array(out).reshape(5, 3).tolist(), out.lod())
print(np.array(out_small).ravel().tolist(), np.array(total))
