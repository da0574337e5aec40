# 02: Switch picks the first case whose condition holds, like if/elif/else
# inside the program. Here: a learning rate that depends on the step.
#
#     fluidc run examples/scripts/02_switch.py
#
import numpy as np
import paddle.fluid as fluid

step = fluid.layers.data(name='step', shape=[1], dtype='float32',
                         append_batch_size=False)
lr = fluid.layers.create_global_var(shape=[1], value=0.0, dtype='float32',
                                    persistable=True, name='lr')
warmup = fluid.layers.fill_constant(shape=[1], dtype='float32', value=100.0)
decay = fluid.layers.fill_constant(shape=[1], dtype='float32', value=1000.0)

with fluid.layers.Switch() as switch:
    with switch.case(step < warmup):            # warming up: small and growing
        fluid.layers.assign(step / warmup * 0.1, lr)
    with switch.case(step < decay):             # the plateau
        fluid.layers.assign(fluid.layers.fill_constant([1], 'float32', 0.1), lr)
    with switch.default():                      # after that: a tenth of it
        fluid.layers.assign(fluid.layers.fill_constant([1], 'float32', 0.01), lr)

exe = fluid.Executor(fluid.CPUPlace())
exe.run(fluid.default_startup_program())
for s in [0, 50, 100, 500, 2000]:
    out, = exe.run(feed={'step': np.array([s], dtype='float32')}, fetch_list=[lr])
    print("step %4d: lr = %.4f" % (s, out[0]))
