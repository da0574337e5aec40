# 1.x's `with fluid.initializer.init_on_cpu():` keeps the constants built
# inside on the CPU: fill_constant, the Constant initializers' ops (a bias,
# a global variable) and less_than's result get `force_cpu`; outside it
# nothing changes. The values are the same.
import numpy as np
import paddle.fluid as fluid
from paddle.fluid.initializer import init_on_cpu, force_init_on_cpu

main, startup = fluid.Program(), fluid.Program()
with fluid.program_guard(main, startup):
    x = fluid.layers.data(name='x', shape=[2], dtype='float32')
    print(force_init_on_cpu())
    with init_on_cpu():
        print(force_init_on_cpu())
        step = fluid.layers.create_global_var(shape=[1], value=3.0, dtype='float32',
                                              persistable=True, name='step')
        limit = fluid.layers.fill_constant(shape=[1], dtype='float32', value=5.0)
        small = fluid.layers.less_than(step, limit)
        y = fluid.layers.fc(input=x, size=1, param_attr=fluid.initializer.Constant(0.5),
                            bias_attr=fluid.initializer.Constant(0.25))
    print(force_init_on_cpu())
    other = fluid.layers.fill_constant(shape=[1], dtype='float32', value=1.0)
    big = fluid.layers.less_than(limit, step)
    z = fluid.layers.fc(input=x, size=1, param_attr=fluid.initializer.Constant(0.5))

for name, prog in (('startup', startup), ('main', main)):
    for op in prog.global_block().ops:
        if op.has_attr('force_cpu'):
            print(name, op.type, op.output_arg_names, op.attr('force_cpu'))

exe = fluid.Executor(fluid.CPUPlace())
exe.run(startup)
out = exe.run(main, feed={'x': np.array([[1.0, 2.0]], dtype='float32')},
              fetch_list=[small, big, y, z, other])
print([np.array(o).reshape(-1).tolist() for o in out])
