# 1.x's layers.multiplex: each row of a batch taken from one of three
# branches (an id per row, as a 2018 mixture-of-experts or a gated
# decoder picked them), trained for a few steps; a branch's gradient is
# zero on the rows it did not give.
import numpy as np
import paddle.fluid as fluid

fluid.default_startup_program().random_seed = 5
x = fluid.layers.data(name='x', shape=[4], dtype='float32')
pick = fluid.layers.data(name='pick', shape=[1], dtype='int32')
branches = [fluid.layers.fc(input=x, size=2, act=act) for act in ('tanh', 'sigmoid', None)]
mixed = fluid.layers.multiplex(inputs=branches, index=pick)
print(mixed.shape)
loss = fluid.layers.mean(fluid.layers.square(mixed - 0.3))
fluid.optimizer.SGD(learning_rate=0.2).minimize(loss)
block = fluid.default_main_program().global_block()
grads = [block.var(b.name + '@GRAD') for b in branches]

exe = fluid.Executor(fluid.CPUPlace())
exe.run(fluid.default_startup_program())
feed = {'x': np.linspace(-2, 2, 20).reshape(5, 4).astype('float32'),
        'pick': np.array([[2], [0], [1], [0], [2]]).astype('int32')}
for step in range(4):
    out = exe.run(feed=feed, fetch_list=[loss, mixed] + grads)
    print(step, np.round(out[0], 5).tolist())
print(np.round(out[1], 5).tolist())
for g in out[2:]:
    print(np.round(g, 5).tolist())

# int64 rows of a [rows, 2, 2] input.
prog, start = fluid.Program(), fluid.Program()
with fluid.program_guard(prog, start):
    a = fluid.layers.data(name='a', shape=[2, 2], dtype='int64')
    b = fluid.layers.data(name='b', shape=[2, 2], dtype='int64')
    i = fluid.layers.data(name='i', shape=[1], dtype='int32')
    m = fluid.layers.multiplex([a, b], i)
r, = exe.run(prog, feed={'a': np.arange(12).reshape(3, 2, 2).astype('int64'),
                         'b': -np.arange(12).reshape(3, 2, 2).astype('int64'),
                         'i': np.array([[1], [0], [1]]).astype('int32')}, fetch_list=[m])
print(r.tolist(), r.dtype)
