# Masks over lengths kept as floats (1.5's contrib basic_lstm fed float32
# sequence lengths, and sequence_mask's own example used a float32 x):
# position j is inside while j < length.
import numpy as np
import paddle.fluid as fluid

lens = fluid.layers.data(name='lens', shape=[-1], dtype='float32', append_batch_size=False)
mask5 = fluid.layers.sequence_mask(lens, maxlen=5, dtype='float32')
mask = fluid.layers.sequence_mask(lens, dtype='int64')
exe = fluid.Executor(fluid.CPUPlace())
for feed in ([2., 5., 0., 3.], [1., 4.], [2.5, 0.5, 3.75]):
    a, b = exe.run(feed={'lens': np.array(feed, 'float32')}, fetch_list=[mask5, mask])
    print(a.tolist(), b.shape, b.tolist())
