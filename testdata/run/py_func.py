# 1.3's layers.py_func: an activation written in numpy (tanh, with its
# gradient in numpy too) between two fc layers trained a few SGD steps, a
# debugging function with no output that prints what flows through, a
# function with two outputs (a tuple, with the LoD of a sequence input), a
# backward function that takes x, out and out@GRAD, one with no inputs,
# and an exception raised inside a function, which exe.run raises again.
import numpy as np
import paddle.fluid as fluid


def create_tmp_var(name, dtype, shape, lod_level=0):
    return fluid.default_main_program().current_block().create_var(
        name=name, dtype=dtype, shape=shape, lod_level=lod_level)


def np_tanh(x):
    return np.tanh(np.array(x))


def np_tanh_grad(y, dy):
    # x was skipped: only the output and its gradient come in
    return np.array(dy) * (1 - np.square(np.array(y)))


seen = []


def record(x):
    seen.append(np.array(x).shape)


def peek(x):
    a = np.array(x)
    print('peek', a.shape, round(float(np.abs(a).max()), 4))


def scale_and_sum(x):
    a = np.array(x)
    rows = fluid.core.LoDTensor()
    rows.set(a * 2.0, fluid.CPUPlace())
    rows.set_recursive_sequence_lengths(x.recursive_sequence_lengths())
    return rows, a.sum(axis=1, keepdims=True)


def square(x):
    return [np.square(np.array(x))]


def square_grad(x, y, dy):
    return 2.0 * np.array(x) * np.array(dy)


def twos():
    return np.full([2, 2], 2.0, dtype='float32')


fluid.default_startup_program().random_seed = 7
img = fluid.layers.data(name='img', shape=[6], dtype='float32')
label = fluid.layers.data(name='label', shape=[1], dtype='float32')
hidden = img
for idx in range(2):
    hidden = fluid.layers.fc(hidden, size=5)
    new_hidden = create_tmp_var('hidden_{}'.format(idx), hidden.dtype, hidden.shape)
    hidden = fluid.layers.py_func(func=np_tanh, x=hidden, out=new_hidden,
                                  backward_func=np_tanh_grad,
                                  skip_vars_in_backward_input=hidden)
    fluid.layers.py_func(func=record, x=hidden, out=None)
# one debugging function that prints: Paddle 3.3.1 may run ops that write
# nothing in another order than 1.x's executor, which kept the program's order
fluid.layers.py_func(func=peek, x=hidden, out=None)
sq = create_tmp_var('sq', 'float32', [-1, 5])
sq = fluid.layers.py_func(square, hidden, sq, backward_func=square_grad)
pred = fluid.layers.fc(sq, size=1)
loss = fluid.layers.mean(fluid.layers.square_error_cost(input=pred, label=label))
fluid.optimizer.SGD(learning_rate=0.2).minimize(loss)
print([op.type for op in fluid.default_main_program().global_block().ops])

seq_prog = fluid.Program()
with fluid.program_guard(seq_prog, fluid.Program()):
    seq = fluid.layers.data(name='seq', shape=[3], dtype='float32', lod_level=1)
    doubled = create_tmp_var('doubled', 'float32', [-1, 3], lod_level=1)
    sums = create_tmp_var('sums', 'float32', [-1, 1])
    fluid.layers.py_func(func=scale_and_sum, x=seq, out=[doubled, sums])
    const = create_tmp_var('const', 'float32', [2, 2])
    fluid.layers.py_func(func=twos, x=None, out=const)

exe = fluid.Executor(fluid.CPUPlace())
exe.run(fluid.default_startup_program())
rng = np.random.RandomState(3)
xs = rng.uniform(-1, 1, (4, 6)).astype('float32')
ys = xs.sum(axis=1, keepdims=True).astype('float32') * 0.1
for step in range(4):
    l, h = exe.run(feed={'img': xs, 'label': ys}, fetch_list=[loss, hidden])
    print('step', step, np.round(l, 5).tolist(), np.round(h[0], 4).tolist())
print(len(seen), seen[0])

t = fluid.create_lod_tensor(np.arange(15).reshape(5, 3).astype('float32'), [[2, 3]],
                            fluid.CPUPlace())
d, s, c = exe.run(program=seq_prog, feed={'seq': t},
                  fetch_list=[doubled, sums, const], return_numpy=False)
print(d.recursive_sequence_lengths(), np.array(d)[:, 0].tolist())
print(np.array(s).ravel().tolist(), np.array(c).tolist())


def no_negatives(x):
    a = np.array(x)
    if (a < 0).any():
        raise ValueError('%d negative values' % int((a < 0).sum()))
    return a


checked = fluid.Program()
with fluid.program_guard(checked, fluid.Program()):
    v = fluid.layers.data(name='v', shape=[2], dtype='float32')
    ok = create_tmp_var('ok', 'float32', [-1, 2])
    fluid.layers.py_func(func=no_negatives, x=v, out=ok)
try:
    exe.run(checked, feed={'v': -np.ones((3, 2), 'float32')}, fetch_list=[ok])
except ValueError as e:
    print('ValueError:', e)
print(exe.run(checked, feed={'v': np.ones((1, 2), 'float32')}, fetch_list=[ok])[0].tolist())
