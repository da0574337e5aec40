# fluid.io.save_vars with a predicate: the variables of main_program for
# which it is true, one file each or combined; load_vars with the same
# predicate reads them back. Relative paths: run it in a scratch directory.
import os
import numpy
import paddle.fluid as fluid

x = fluid.layers.data(name='x', shape=[3], dtype='float32')
hidden = fluid.layers.fc(
    input=x, size=2, act='relu',
    param_attr=fluid.ParamAttr(initializer=fluid.initializer.Constant(0.25)),
    bias_attr=fluid.ParamAttr(initializer=fluid.initializer.Constant(0.5)))
out = fluid.layers.fc(
    input=hidden, size=1,
    param_attr=fluid.ParamAttr(name='out_w', initializer=fluid.initializer.Constant(-1.5)))
counter = fluid.layers.create_global_var(shape=[1], value=7.0, dtype='float32',
                                         persistable=True, name='counter')

exe = fluid.Executor(fluid.CPUPlace())
exe.run(fluid.default_startup_program())
main = fluid.default_main_program()


def is_weight(var):
    return fluid.io.is_parameter(var) and var.name.endswith('w_0')


fluid.io.save_vars(exe, 'weights', main_program=main, predicate=is_weight)
print(sorted(os.listdir('weights')))
fluid.io.save_vars(exe, 'everything', main_program=main,
                   predicate=fluid.io.is_persistable, filename='all')
print(sorted(os.listdir('everything')))
fluid.io.save_vars(exe, 'by_name', main_program=main,
                   predicate=lambda v: v.name in ('out_w', 'counter'))
print(sorted(os.listdir('by_name')))
print(len([v for v in main.list_vars() if fluid.io.is_parameter(v)]), 'parameters')

feed = {'x': numpy.array([[1.0, 2.0, 3.0]], dtype='float32')}
before, = exe.run(main, feed=feed, fetch_list=[out])
# A fresh scope, never initialized, gets every persistable back from the
# files.
scope = fluid.core.Scope()
with fluid.scope_guard(scope):
    fluid.io.load_vars(exe, 'weights', main_program=main, predicate=is_weight)
    fluid.io.load_vars(exe, 'everything', main_program=main,
                       predicate=fluid.io.is_persistable, filename='all')
    after, = exe.run(main, feed=feed, fetch_list=[out])
print('predict', before.flatten(), after.flatten())
