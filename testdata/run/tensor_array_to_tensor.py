# 1.5-1.6's tensor_array_to_tensor (a decoder's per-step outputs gathered from
# a tensor array into one tensor, concatenated or stacked, trained through),
# and 1.6's where (coordinates of true elements) and size.
import numpy as np
import paddle.fluid as fluid

fluid.default_startup_program().random_seed = 3
x = fluid.layers.data(name='x', shape=[2, 3], dtype='float32', append_batch_size=False)
x.stop_gradient = False
arr = fluid.layers.create_array(dtype='float32')
i = fluid.layers.zeros(shape=[1], dtype='int64')
for k in range(3):
    h = fluid.layers.fc(input=x, size=3 + k, act='tanh')
    fluid.layers.array_write(h, i=i, array=arr)
    i = fluid.layers.increment(i, value=1, in_place=False)
joined, sizes = fluid.layers.tensor_array_to_tensor(input=arr, axis=1)
loss = fluid.layers.reduce_sum(fluid.layers.square(joined))
fluid.backward.append_backward(loss)
arr2 = fluid.layers.create_array(dtype='float32')
j = fluid.layers.zeros(shape=[1], dtype='int64')
for k in range(2):
    fluid.layers.array_write(x * float(k + 1), i=j, array=arr2)
    j = fluid.layers.increment(j, value=1, in_place=False)
stacked, ones = fluid.layers.tensor_array_to_tensor(input=arr2, axis=0, use_stack=True)
exe = fluid.Executor(fluid.CPUPlace())
exe.run(fluid.default_startup_program())
xs = np.arange(6, dtype='float32').reshape(2, 3) / 10
out = exe.run(feed={'x': xs}, fetch_list=[joined, loss, 'x@GRAD', stacked])
print('loss', round(float(np.array(out[1]).ravel()[0]), 5))
for o in out[:1] + out[2:]:
    print(o.dtype, o.shape, np.round(o, 5).tolist())
cond = fluid.layers.data(name='cond', shape=[2, 3], dtype='float32', append_batch_size=False)
mask = fluid.layers.greater_than(cond, fluid.layers.fill_constant([2, 3], 'float32', 0.5))
idx = fluid.layers.where(mask)
n = fluid.layers.size(cond)
cs = np.array([[0.1, 0.9, 0.7], [0.6, 0.2, 0.0]], dtype='float32')
r = exe.run(feed={'x': xs, 'cond': cs}, fetch_list=[idx, n])
print(r[0].dtype, r[0].tolist(), r[1].dtype, r[1].tolist())
