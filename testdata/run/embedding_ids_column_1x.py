# fluid.layers.embedding looks up a column of ids: 1.x's lookup_table
# refused ids whose last dimension is not 1 when the layer was built
# (a common slip: data(shape=[seq_len]) fed straight to embedding).
import numpy as np
import paddle.fluid as fluid

with fluid.program_guard(fluid.Program(), fluid.Program()):
    words = fluid.layers.data(name='words', shape=[5], dtype='int64')
    try:
        fluid.layers.embedding(words, size=[100, 8])
        print('accepted')
    except ValueError as e:
        print('refused:', "The last dimensions of the 'Ids' tensor must be 1" in str(e))

ids = fluid.layers.data(name='ids', shape=[1], dtype='int64')
emb = fluid.layers.embedding(ids, size=[100, 8],
                             param_attr=fluid.ParamAttr(initializer=fluid.initializer.Constant(0.25)))
print(emb.shape)
exe = fluid.Executor(fluid.CPUPlace())
exe.run(fluid.default_startup_program())
out, = exe.run(feed={'ids': np.array([[3], [7]], dtype='int64')}, fetch_list=[emb])
print(out.shape, out.sum())
