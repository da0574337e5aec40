# The LoDTensor API of Paddle 1.0's unittests (test_data_feeder,
# test_lod_tensor, test_lod_tensor_array, test_dynrnn_static_input):
# DataFeeder.feed gives a LoDTensor for every field, lod_level 0 included
# (`.shape()` is a method), and exe.run takes that dict; invalid
# recursive_sequence_lengths are refused; `_set_float_element` /
# `_get_float_element` edit a tensor in place; a new scope variable gives
# an empty LoDTensorArray to fill.
from __future__ import print_function

import numpy as np
import paddle.fluid as fluid
import paddle.fluid.core as core

place = fluid.CPUPlace()

# -- DataFeeder: LoDTensors for lod_level 0, 1 and 2
img = fluid.layers.data(name='image', shape=[1, 2, 2])
label = fluid.layers.data(name='label', shape=[1], dtype='int64')
words = fluid.layers.data(name='words', shape=[1], dtype='int64', lod_level=1)
paras = fluid.layers.data(name='paras', shape=[1], dtype='int64', lod_level=2)
feeder = fluid.DataFeeder([img, label, words, paras], place)
batch = [([0, 1, 2, 3], [9], [1, 2, 3], [[1, 2], [3]]),
         ([4, 5, 6, 7], [1], [4, 5], [[4, 5, 6]])]
fed = feeder.feed(batch)
for name in ['image', 'label', 'words', 'paras']:
    t = fed[name]
    print(name, isinstance(t, fluid.LoDTensor), t.shape(), t.recursive_sequence_lengths(),
          t.lod(), np.array(t).dtype, np.array(t).ravel().tolist())

# exe.run takes the feeder's dict as it is.
flat = fluid.layers.reshape(img, shape=[-1, 4])
emb = fluid.layers.embedding(input=words, size=[10, 3],
                             param_attr=fluid.ParamAttr(
                                 initializer=fluid.initializer.Constant(0.5)))
pooled = fluid.layers.sequence_pool(emb, 'sum')
total = fluid.layers.reduce_sum(flat, dim=1, keep_dim=True)
out = fluid.layers.elementwise_add(pooled, fluid.layers.cast(total, 'float32'))
exe = fluid.Executor(place)
exe.run(fluid.default_startup_program())
res, = exe.run(feed=fed, fetch_list=[out])
print('run', res.shape, res.ravel().tolist())
fed2 = feeder.feed(batch[:1])
res2, = exe.run(feed=fed2, fetch_list=[out])
print('run one', res2.ravel().tolist())

# -- recursive_sequence_lengths checked as 1.x's set_recursive_sequence_lengths
def attempt(tag, f):
    try:
        f()
        print(tag, 'accepted')
    except Exception:
        print(tag, 'refused')


t = fluid.LoDTensor()
attempt('empty lengths', lambda: t.set_recursive_sequence_lengths([]))
attempt('[[], [1], [3]]', lambda: t.set_recursive_sequence_lengths([[], [1], [3]]))
attempt('[[0], [2], [3]]', lambda: t.set_recursive_sequence_lengths([[0], [2], [3]]))
attempt('[[1, 2, 3]] no data', lambda: t.set_recursive_sequence_lengths([[1, 2, 3]]))
print(t.recursive_sequence_lengths(), t.shape())
t.set(np.arange(6, dtype='float32').reshape([6, 1]), place)
print(t.recursive_sequence_lengths(), t.lod(), t.shape())
attempt('[[2, 4]] 6 rows', lambda: t.set_recursive_sequence_lengths([[2, 4]]))
attempt('[[2, 3]] 6 rows', lambda: t.set_recursive_sequence_lengths([[2, 3]]))
attempt('[[1, 1], [2, 4]]', lambda: t.set_recursive_sequence_lengths([[1, 1], [2, 4]]))
attempt('[[1, 2], [2, 4]]', lambda: t.set_recursive_sequence_lengths([[1, 2], [2, 4]]))
print(t.recursive_sequence_lengths())
attempt('set_lod [[0, 6]]', lambda: t.set_lod([[0, 6]]))
attempt('set_lod [[0, 5]]', lambda: t.set_lod([[0, 5]]))
attempt('set_lod [[1, 6]]', lambda: t.set_lod([[1, 6]]))
print(t.lod())
seeded = core.LoDTensor([[2, 2]])
print('ctor', seeded.recursive_sequence_lengths())
attempt('ctor [[2], [1]]', lambda: core.LoDTensor([[2], [1]]))

# -- elements, as test_dynrnn_static_input's numeric gradient reads them
e = fluid.LoDTensor()
e.set(np.arange(6, dtype='float32').reshape([2, 3]) / 4, place)
e.set_recursive_sequence_lengths([[1, 1]])
print([e._get_float_element(i) for i in range(6)])
e._set_float_element(4, 2.75)
e._set_float_element(0, -1.0)
print(np.array(e).tolist(), e.recursive_sequence_lengths())
attempt('double of float32', lambda: e._get_double_element(0))
d = fluid.LoDTensor()
d.set(np.array([0.1, 0.2], dtype='float64'), place)
d._set_double_element(1, 1e-300)
print(d._get_double_element(0), d._get_double_element(1), np.array(d).tolist())
attempt('float of float64', lambda: d._get_float_element(0))
print(fluid.LoDTensor().shape())

# -- a new scope variable holds an empty LoDTensorArray
for scope in (core.Scope(), fluid.global_scope()):
    arr = scope.var('tensor_array_1x').get_lod_tensor_array()
    print(len(arr))
    for i in range(3):
        item = core.LoDTensor()
        item.set(np.array([i, i + 1], dtype='int64'), place)
        item.set_recursive_sequence_lengths([[2]])
        arr.append(item)
    replaced = core.LoDTensor()
    replaced.set(np.array([10, 11], dtype='int64'), place)
    replaced.set_recursive_sequence_lengths([[2]])
    arr[1] = replaced
    print(len(arr), [np.array(a).tolist() for a in arr],
          [a.recursive_sequence_lengths() for a in arr])
