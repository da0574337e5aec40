# 05: a deadlock report. The main program receives on a channel nobody
# ever sends on, so it can never go on. fluidc stops and says which op in
# which block is waiting (exit status 3), as Go reports "all goroutines are
# asleep".
#
#     fluidc run examples/scripts/05_deadlock.py
#
import paddle.fluid as fluid
import paddle.fluid.core as core

ch = fluid.make_channel(dtype=core.VarDesc.VarType.INT64)
value = fluid.layers.fill_constant(shape=[1], dtype='int64', value=0)
fluid.channel_recv(ch, value)        # waits forever: no goroutine sends

exe = fluid.Executor(fluid.CPUPlace())
exe.run(fetch_list=[value])
print("never printed")
