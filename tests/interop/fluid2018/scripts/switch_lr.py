# A piecewise learning-rate schedule with Switch, as fluid's lr schedulers wrote it.
import paddle.fluid as fluid

global_step = fluid.layers.create_global_var(
    shape=[1], value=0.0, dtype='float32', persistable=True, name='global_step')
lr = fluid.layers.create_global_var(
    shape=[1], value=0.0, dtype='float32', persistable=True, name='learning_rate')
fluid.layers.increment(x=global_step, value=1.0, in_place=True)

warmup_steps = fluid.layers.fill_constant(shape=[1], dtype='float32', value=100.0)
decay_steps = fluid.layers.fill_constant(shape=[1], dtype='float32', value=1000.0)

with fluid.layers.Switch() as switch:
    with switch.case(global_step < warmup_steps):
        warm = global_step / warmup_steps * 0.1
        fluid.layers.assign(warm, lr)
    with switch.case(global_step < decay_steps):
        fluid.layers.assign(fluid.layers.fill_constant(shape=[1], dtype='float32', value=0.1), lr)
    with switch.default():
        fluid.layers.assign(fluid.layers.fill_constant(shape=[1], dtype='float32', value=0.01), lr)

exe = fluid.Executor(fluid.CPUPlace())
exe.run(fluid.default_startup_program())
lr_value = exe.run(fluid.default_main_program(), fetch_list=[lr, global_step])
