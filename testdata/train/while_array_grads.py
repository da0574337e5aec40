# Backward through a While loop over tensor arrays: three vectors are
# summed step by step into an array, the loss is the mean of the last
# element, and append_backward builds while_grad.
from __future__ import print_function
import numpy
import paddle.fluid as fluid
import paddle.fluid.layers as layers
from paddle.fluid.backward import append_backward

d0 = layers.data("d0", shape=[10], append_batch_size=False, dtype='float32')
d1 = layers.data("d1", shape=[10], append_batch_size=False, dtype='float32')
d2 = layers.data("d2", shape=[10], append_batch_size=False, dtype='float32')
for d in (d0, d1, d2):
    d.stop_gradient = False
i = layers.zeros(shape=[1], dtype='int64')
i.stop_gradient = True
init = layers.zeros(shape=[10], dtype='float32')
init.stop_gradient = False
mem_array = layers.array_write(x=init, i=i)
data_array = layers.array_write(x=d0, i=i)
i = layers.increment(i)
layers.array_write(d1, i, array=data_array)
i = layers.increment(i)
layers.array_write(d2, i, array=data_array)
i = layers.zeros(shape=[1], dtype='int64')
i.stop_gradient = True
array_len = layers.fill_constant(shape=[1], dtype='int64', value=3)
array_len.stop_gradient = True
cond = layers.less_than(x=i, y=array_len)

while_op = layers.While(cond=cond)
with while_op.block():
    d = layers.array_read(array=data_array, i=i)
    prev = layers.array_read(array=mem_array, i=i)
    result = layers.sums(input=[d, prev])
    i = layers.increment(x=i, in_place=True)
    layers.array_write(result, i=i, array=mem_array)
    layers.less_than(x=i, y=array_len, cond=cond)

sum_result = layers.array_read(array=mem_array, i=i)
loss = layers.mean(sum_result)
append_backward(loss)

exe = fluid.Executor(fluid.CPUPlace())
rng = numpy.random.RandomState(1)
feed = {n: rng.rand(10).astype('float32') for n in ('d0', 'd1', 'd2')}
out, g0, g2 = exe.run(feed=feed, fetch_list=[sum_result, 'd0@GRAD', 'd2@GRAD'])
print(numpy.allclose(out, feed['d0'] + feed['d1'] + feed['d2']))
print(g0)
print(g2)
