# Tensor arrays in run mode: write, read and length, a While loop that
# fills an array, the step counter across runs, and a CompiledProgram.
import numpy as np
import paddle.fluid as fluid
import paddle.fluid.layers as layers

x = layers.data("x", shape=[3], append_batch_size=False, dtype='float32')
i = layers.zeros(shape=[1], dtype='int64')
arr = layers.array_write(x=x, i=i)
j = layers.increment(x=i, value=1, in_place=False)
layers.array_write(x=layers.scale(x, scale=2.0), i=j, array=arr)
n = layers.array_length(arr)
second = layers.array_read(array=arr, i=j)
first = layers.array_read(array=arr, i=i)

# A While loop writes k * x for k = 0..4 into another array.
squares = layers.create_array(dtype='float32')
k = layers.fill_constant(shape=[1], dtype='int64', value=0)
limit = layers.fill_constant(shape=[1], dtype='int64', value=5)
cond = layers.less_than(x=k, y=limit)
loop = layers.While(cond=cond)
with loop.block():
    kf = layers.cast(k, 'float32')
    layers.array_write(x=layers.elementwise_mul(x, kf), i=k, array=squares)
    layers.increment(x=k, value=1, in_place=True)
    layers.less_than(x=k, y=limit, cond=cond)
count = layers.array_length(squares)
last = layers.array_read(array=squares, i=layers.fill_constant(shape=[1], dtype='int64', value=4))
step = layers.autoincreased_step_counter(begin=10, step=5)

exe = fluid.Executor(fluid.CPUPlace())
exe.run(fluid.default_startup_program())
feed = {'x': np.array([1, 2, 3], 'float32')}
for run in range(2):
    got = exe.run(fluid.default_main_program(), feed=feed,
                  fetch_list=[n, first, second, count, last, step])
    # (Paddle returns int64 as numpy's longlong, whose repr shows its dtype.)
    print(run, [g.tolist() for g in got])
prog = fluid.compiler.CompiledProgram(fluid.default_main_program())
print(exe.run(prog, feed=feed, fetch_list=[step])[0].tolist())
