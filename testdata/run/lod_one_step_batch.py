# A batch of one sentence of one word (the last, short batch of a 2019
# text classifier's reader, or a one-word query at inference): its LoD
# must reach the sequence ops through the layers between them, as it does
# for longer batches.
from __future__ import print_function

import numpy as np
import paddle.fluid as fluid

words = fluid.layers.data(name='words', shape=[1], dtype='int64', lod_level=1)
emb = fluid.layers.embedding(words, size=[10, 3], param_attr=fluid.ParamAttr(
    name='emb', initializer=fluid.initializer.NumpyArrayInitializer(
        np.arange(30, dtype='float32').reshape(10, 3) * 0.1 - 1.0)))
ids = fluid.layers.cast(words, 'float32')
scaled = fluid.layers.scale(ids, 2.0, bias=0.5)
pooled_ids = fluid.layers.sequence_pool(scaled, 'sum')
hidden = fluid.layers.fc(emb, size=1, act='tanh', param_attr=fluid.ParamAttr(
    name='w', initializer=fluid.initializer.Constant(0.5)), bias_attr=False)
last = fluid.layers.sequence_last_step(hidden)
pooled = fluid.layers.sequence_pool(hidden, 'max')

exe = fluid.Executor(fluid.CPUPlace())
exe.run(fluid.default_startup_program())
place = fluid.CPUPlace()
for batch, lengths in (([[4]], [1]), ([[4], [7], [2]], [2, 1]), ([[9]], [1])):
    t = fluid.create_lod_tensor(np.array(batch, dtype='int64'), [lengths], place)
    p_ids, l, p, s = exe.run(feed={'words': t}, fetch_list=[pooled_ids, last, pooled, scaled],
                             return_numpy=False)
    print(lengths, np.array(p_ids).ravel().tolist(), np.round(np.array(l), 5).ravel().tolist(),
          np.round(np.array(p), 5).ravel().tolist(), s.recursive_sequence_lengths())
