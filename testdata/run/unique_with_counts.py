# 1.6's unique_with_counts as a CTR/NLP pipeline used it: the distinct ids
# of a batch in the order they first appear, each id's place among them
# and how often it occurs (for a frequency-weighted lookup), int32 and
# int64, over int64 ids and float scores.
import numpy as np
import paddle.fluid as fluid

ids = fluid.layers.data(name='ids', shape=[9], dtype='int64', append_batch_size=False)
scores = fluid.layers.data(name='scores', shape=[7], dtype='float32', append_batch_size=False)
uniq, index, count = fluid.layers.unique_with_counts(ids)
fu, fi, fc = fluid.layers.unique_with_counts(scores, dtype='int64')
weight = fluid.layers.cast(fluid.layers.gather(count, index), 'float32')
print(uniq.dtype == ids.dtype, index.dtype == count.dtype, fc.dtype == fi.dtype, index.shape)
for bad in [lambda: fluid.layers.unique_with_counts(ids, dtype='float32'),
            lambda: fluid.layers.unique_with_counts(
                fluid.layers.data(name='m', shape=[2, 3], dtype='int64'))]:
    try:
        bad()
    except (TypeError, ValueError) as e:
        print(type(e).__name__, e)

exe = fluid.Executor(fluid.CPUPlace())
feed = {'ids': np.array([7, 3, 7, 9, 3, 3, 0, 9, 12], dtype='int64'),
        'scores': np.array([0.5, -1.0, 0.5, 2.25, -1.0, 0.0, 0.5], dtype='float32')}
outs = exe.run(feed=feed, fetch_list=[uniq, index, count, fu, fi, fc, weight])
for o in outs:
    print(o.dtype, o.shape, o.tolist())
