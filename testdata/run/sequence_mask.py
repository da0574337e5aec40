# Masks from sequence lengths, as 2019 attention and padding code built them:
# a fixed maxlen, the longest length (maxlen=None), a float mask multiplied
# into padded scores, and a maxlen given as a Variable.
import numpy as np
import paddle.fluid as fluid

lengths = fluid.layers.data(name='lengths', shape=[1], dtype='int64',
                            append_batch_size=False)
scores = fluid.layers.data(name='scores', shape=[6], dtype='float32')
flat = fluid.layers.reshape(lengths, shape=[-1])
fixed = fluid.layers.sequence_mask(flat, maxlen=6)
longest = fluid.layers.sequence_mask(flat, dtype='int32')
weights = fluid.layers.sequence_mask(flat, maxlen=6, dtype='float32')
masked = fluid.layers.elementwise_mul(scores, weights)
limit = fluid.layers.fill_constant(shape=[1], dtype='int32', value=4)
by_var = fluid.layers.sequence_mask(flat, maxlen=limit, dtype='float64')
print(fixed.shape, longest.shape, fixed.stop_gradient)

exe = fluid.Executor(fluid.CPUPlace())
exe.run(fluid.default_startup_program())
lens = np.array([[3], [1], [5], [0]], dtype='int64')
sc = np.arange(24, dtype='float32').reshape(4, 6) / 10.0
outs = exe.run(feed={'lengths': lens, 'scores': sc},
               fetch_list=[fixed, longest, masked, by_var])
for name, o in zip(['fixed', 'longest', 'masked', 'by_var'], outs):
    print(name, o.dtype, o.shape)
    print(np.round(o, 2).tolist())
