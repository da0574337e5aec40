# layers.cond with true_fn/false_fn returning a pair, then with lambdas.
import numpy as np
import paddle.fluid as fluid

a = fluid.data(name='a', shape=[1], dtype='float32')
b = fluid.data(name='b', shape=[1], dtype='float32')


def true_fn():
    return fluid.layers.elementwise_add(a, b), fluid.layers.relu(a - b)


def false_fn():
    zero = fluid.layers.fill_constant(shape=[1], dtype='float32', value=0.0)
    return fluid.layers.elementwise_mul(a, b), zero


pred = fluid.layers.less_than(a, b)
total, rest = fluid.layers.cond(pred, true_fn, false_fn)
larger = fluid.layers.cond(a > b, lambda: a, lambda: b)
summary = fluid.layers.assign(total + rest + larger)

exe = fluid.Executor(fluid.CPUPlace())
feed = {'a': np.array([1.0], dtype='float32'), 'b': np.array([2.0], dtype='float32')}
out = exe.run(fluid.default_main_program(), feed=feed, fetch_list=[summary, larger])
