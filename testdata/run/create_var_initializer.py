# Block.create_var(..., initializer=I) initializes the new variable in that
# block (I's op there), as 1.x's create_var did; so does a LayerHelper's
# set_variable_initializer for a global variable of the main program.
import numpy as np
import paddle.fluid as fluid
main, startup = fluid.Program(), fluid.Program()
with fluid.program_guard(main, startup):
    sb = startup.global_block()
    v = sb.create_var(name="v", shape=[2, 3], dtype="float32", persistable=True,
                      initializer=fluid.initializer.Constant(2.5))
    mb = main.global_block()
    mv = mb.create_var(name="v", shape=[2, 3], dtype="float32", persistable=True)
    helper = fluid.layer_helper.LayerHelper("counter")
    c = helper.create_global_variable(name="c", shape=[1], dtype="int64", persistable=True)
    helper.set_variable_initializer(c, fluid.initializer.Constant(7))
    out = fluid.layers.scale(mv, scale=2.0)
print([op.type for op in startup.global_block().ops])
exe = fluid.Executor(fluid.CPUPlace())
exe.run(startup)
print(exe.run(main, fetch_list=[out, c]))
