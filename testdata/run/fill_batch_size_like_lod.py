# A decoder's first state sized from a LoD batch, as 2018 seq2seq models
# built it: fill_constant_batch_size_like over a sequence batch takes the
# number of sequences (1.x's kernel), not the number of rows.
import numpy as np
import paddle.fluid as fluid

src = fluid.layers.data(name='src', shape=[4], dtype='float32', lod_level=1)
boot = fluid.layers.fill_constant_batch_size_like(src, shape=[-1, 3], dtype='float32', value=0.5)
last = fluid.layers.sequence_last_step(src)
plain = fluid.layers.fill_constant_batch_size_like(last, shape=[2, -1], dtype='float32', value=1.0,
                                                   input_dim_idx=1, output_dim_idx=1)
exe = fluid.Executor(fluid.CPUPlace())
t = fluid.create_lod_tensor(np.arange(28, dtype='float32').reshape(7, 4), [[2, 4, 1]],
                            fluid.CPUPlace())
b, p = exe.run(feed={'src': t}, fetch_list=[boot, plain])
print(boot.shape, b.shape, b[0].tolist(), p.shape)
