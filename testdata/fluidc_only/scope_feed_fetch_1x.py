# Paddle 1.0's scope-side LoDTensor API where Paddle 3.3.1 cannot be the
# peer (it dropped or changed these; testdata/run/lod_tensor_1x_api.py has
# the rest): `core.set_feed_variable` / `core.get_fetch_variable` (1.0's
# test_feed_fetch_method: a feed list in a scope variable, read back),
# `has_valid_recursive_sequence_lengths` (1.0's test_lod_tensor), and a
# LoDTensorArray's item assignment taking the new item's LoD (1.0's
# binding: `self[i].set_lod(t.lod())`; 3.3.1 keeps the old one). Expected
# values are the ones 1.0's tests assert, and numpy's.
import numpy as np
import paddle.fluid as fluid
import paddle.fluid.core as core

place = core.CPUPlace()

# set_feed_variable / get_fetch_variable
scope = core.Scope()
data = np.ones((4, 4, 6)).astype('float32')
data[0, 0, 0] = 3
data[3, 3, 5] = 10
fed = core.LoDTensor([[2, 2]])
fed.set(data, place)
core.set_feed_variable(scope, fed, 'feed', 0)
second = core.LoDTensor()
second.set(np.arange(3, dtype='int64'), place)
core.set_feed_variable(scope, second, 'feed', 2)
got = core.get_fetch_variable(scope, 'feed', 0)
assert got.recursive_sequence_lengths() == [[2, 2]], got.recursive_sequence_lengths()
assert np.array_equal(np.array(got), data)
assert np.array_equal(np.array(core.get_fetch_variable(scope, 'feed', 2)), np.arange(3))
assert core.get_fetch_variable(scope, 'feed', 1).shape() == [0]
assert scope.find_var('feed') is not None
for bad in ((scope, 'feed', 3), (scope, 'fetch', 0)):
    try:
        core.get_fetch_variable(*bad)
        raise AssertionError('read %r' % (bad[1:],))
    except core.EnforceNotMet:
        pass
# The scope keeps its own copy: setting the source again changes nothing.
fed.set(np.zeros((4, 4, 6), dtype='float32'), place)
assert np.array_equal(np.array(core.get_fetch_variable(scope, 'feed', 0)), data)

# has_valid_recursive_sequence_lengths, as 1.0's test_lod_tensor asserts
t = fluid.LoDTensor()
t.set_recursive_sequence_lengths([[1, 2, 3]])
t.set(np.random.random([6, 1]), place)
assert t.has_valid_recursive_sequence_lengths()
t.set(np.random.random([9, 1]), place)
assert not t.has_valid_recursive_sequence_lengths()
t.set_recursive_sequence_lengths([[2, 3], [1, 3, 1, 2, 2]])
t.set(np.random.random([8, 1]), place)
assert not t.has_valid_recursive_sequence_lengths()
t.set_recursive_sequence_lengths([[2, 3], [1, 3, 1, 2, 1]])
assert t.has_valid_recursive_sequence_lengths()
t.set(np.random.random([9, 1]), place)
assert not t.has_valid_recursive_sequence_lengths()
for bad in ([[], [1], [3]], [[0], [2], [3]], [[-1]]):
    try:
        fluid.LoDTensor().set_recursive_sequence_lengths(bad)
        raise AssertionError('accepted %r' % (bad,))
    except (core.EnforceNotMet, TypeError):
        pass

# A scope's tensor array: made empty by the first get, kept by the scope,
# its items taking the LoD of what is assigned.
s = core.Scope()
assert s.find_var('arr') is None
arr = s.var('arr').get_lod_tensor_array()
assert len(arr) == 0 and s.find_var('arr') is not None
item = core.LoDTensor()
item.set(np.array([[1.5], [2.5]], dtype='float32'), place)
item.set_recursive_sequence_lengths([[2]])
arr.append(item)
again = s.find_var('arr').get_lod_tensor_array()
assert again is arr and len(again) == 1
short = core.LoDTensor()
short.set(np.array([[7.0]], dtype='float32'), place)
short.set_recursive_sequence_lengths([[1]])
arr[0] = short
assert arr[0].recursive_sequence_lengths() == [[1]]
assert np.array(arr[0]).tolist() == [[7.0]]
try:
    arr.append(np.zeros(2))
    raise AssertionError('appended an ndarray')
except TypeError:
    pass
# A variable holding a tensor is not an array.
x = fluid.layers.data(name='x', shape=[2], dtype='float32')
y = fluid.layers.scale(x, scale=2.0)
y.persistable = True
exe = fluid.Executor(place)
exe.run(feed={'x': np.ones((1, 2), dtype='float32')}, fetch_list=[y])
try:
    fluid.global_scope().find_var(y.name).get_lod_tensor_array()
    raise AssertionError('a tensor read as an array')
except core.EnforceNotMet:
    pass
print('ok')
