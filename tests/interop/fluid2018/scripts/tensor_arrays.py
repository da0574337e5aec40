# Tensor arrays (create_array, array_write, array_read, array_length), a
# bare create_tensor and autoincreased_step_counter, as Paddle 1.x built them.
import paddle.fluid as fluid
import paddle.fluid.layers as layers

d0 = layers.data("d0", shape=[3], append_batch_size=False, dtype='float32')
i = layers.zeros(shape=[1], dtype='int64')
arr = layers.array_write(x=d0, i=i)
j = layers.increment(x=i, value=1, in_place=False)
d1 = layers.scale(d0, scale=2.0)
layers.array_write(x=d1, i=j, array=arr)
n = layers.array_length(arr)
back = layers.array_read(array=arr, i=j)

arr2 = layers.create_array(dtype='float32')
layers.array_write(d0, j, array=arr2)
n2 = layers.array_length(arr2)

t = layers.create_tensor(dtype='float32')
layers.assign(back, t)
named = layers.create_tensor(dtype='int64', name='my_tensor', persistable=True)
step = layers.autoincreased_step_counter()
other = layers.autoincreased_step_counter(counter_name='@MY_COUNTER@', begin=10, step=2)

exe = fluid.Executor(fluid.CPUPlace())
exe.run(fluid.default_startup_program())
out = exe.run(fluid.default_main_program(), feed={'d0': [1.0, 2.0, 3.0]},
              fetch_list=[n, back, n2, t, step, other])
