# lod_tensor_to_array, array_to_lod_tensor and reorder_lod_tensor_by_rank
# (and their grads) on a 2-level LoD input, as 1.0's
# test_lod_tensor_array_ops.py and test_reorder_lod_tensor.py used them:
# each array item keeps its elements' sub-sequence LoD, the array turns
# back into the input with its LoD, the reorder moves whole sequences with
# their LoD, and the gradient comes back with the input's LoD.
# numpy_lod_arrays_two_levels.py computes the same in numpy (tests/lod_rnn.rs).
import numpy as np
import paddle.fluid as fluid
import paddle.fluid.core as core
import paddle.fluid.layers as layers
from paddle.fluid.layers.control_flow import lod_rank_table, lod_tensor_to_array
from paddle.fluid.layers.control_flow import array_to_lod_tensor

place = fluid.CPUPlace()
lengths = [[2, 3, 1], [3, 6, 2, 6, 3, 2]]
rows = sum(lengths[1])
values = (np.arange(rows).reshape(rows, 1) * 0.5 - 3.0).astype('float32')

program = fluid.Program()
with fluid.program_guard(program):
    x = layers.data(name='x', shape=[1], dtype='float32', lod_level=2, stop_gradient=False)
    table = lod_rank_table(x, level=0)
    array = lod_tensor_to_array(x, table)
    array.persistable = True
    restored = array_to_lod_tensor(array, table)
    reordered = layers.reorder_lod_tensor_by_rank(x, table)
    loss = layers.elementwise_add(layers.mean(layers.scale(restored, scale=3.0)),
                                  layers.reduce_sum(layers.square(reordered)))
    fluid.backward.append_backward(loss)

t = core.LoDTensor()
t.set(values, place)
t.set_recursive_sequence_lengths(lengths)
scope = core.Scope()
out = fluid.Executor(place).run(program, feed={'x': t}, scope=scope, return_numpy=False,
                                fetch_list=[restored, reordered, x.name + '@GRAD'])
items = scope.find_var(array.name).get_lod_tensor_array()
for i in range(len(items)):
    print('item', i, items[i].recursive_sequence_lengths(), np.array(items[i]).ravel().tolist())
for name, v in zip(['restored', 'reordered', 'x@GRAD'], out):
    print(name, v.recursive_sequence_lengths(), np.round(np.array(v).ravel(), 5).tolist())
