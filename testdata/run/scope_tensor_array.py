# Reading a tensor array back from the scope, as Paddle's 2018
# test_array_read_write_op and test_lod_tensor_array_ops did: the array is
# made persistable, so the executor's scope keeps it after the run, and
# `scope.find_var(name).get_lod_tensor_array()` gives its elements as
# LoDTensors (`np.array(t)`, `t.lod()`, `len(...)`);
# `_get_float_element(i)` reads one element of a tensor.
import numpy as np
import paddle.fluid as fluid
import paddle.fluid.layers as layers

x = layers.data(name='x', shape=[3], dtype='float32')
i = layers.zeros(shape=[1], dtype='int64')
arr = layers.array_write(x, i)
doubled = layers.scale(x, scale=2.0)
i = layers.increment(i, in_place=False)
layers.array_write(doubled, i, array=arr)
arr.persistable = True
total = layers.reduce_sum(doubled)
total.persistable = True

exe = fluid.Executor(fluid.CPUPlace())
exe.run(fluid.default_startup_program())
feed = np.arange(6, dtype='float32').reshape(2, 3) / 4.0
exe.run(feed={'x': feed}, fetch_list=[total])

scope = fluid.global_scope()
items = scope.find_var(arr.name).get_lod_tensor_array()
print(len(items))
for t in items:
    a = np.array(t)
    print(a.shape, a.dtype, a.tolist(), t.lod())
print(scope.find_var(total.name).get_tensor()._get_float_element(0))
