# Two ops may not run one block: a go appended by hand on a Select case body.
import paddle.fluid as fluid
prog = fluid.default_main_program()
ch = fluid.make_channel(dtype='int64')
x = fluid.layers.fill_constant(shape=[1], dtype='int64', value=1)
with fluid.Select() as select:
    with select.case(fluid.channel_send, ch, x):
        y = fluid.layers.fill_constant(shape=[1], dtype='int64', value=2)
    with select.default():
        pass
prog.current_block().append_op(type='go', inputs={'X': []}, outputs={}, attrs={'sub_block': prog.block(1)})
exe = fluid.Executor(fluid.CPUPlace())
exe.run(fetch_list=[x])
