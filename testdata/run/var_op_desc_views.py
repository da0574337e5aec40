# 2019 graph-learning helpers reached a Variable's and an Operator's desc:
# a global var's batch dimension hidden with `var.desc.set_shape([-1, d])`
# after create_global_var (then fed rows of any count), and passes that walk
# `program.global_block().ops` reading `op.desc.type()`, its argument names
# and attributes.
import numpy as np
import paddle.fluid as fluid
from paddle.fluid import core

main, startup = fluid.Program(), fluid.Program()
with fluid.program_guard(main, startup):
    feat = fluid.layers.create_global_var(
        shape=[3, 2], value=0.5, dtype='float32', name='node_feat', persistable=True)
    feat.stop_gradient = True
    print('before', feat.shape, feat.desc.shape(), feat.desc.name(), feat.desc.persistable())
    feat.desc.set_shape([-1, 2])
    print('after', feat.shape, feat.desc.shape())
    x = fluid.layers.data(name='x', shape=[2], dtype='float32')
    print('x', x.desc.shape(), x.desc.lod_level(), x.desc.dtype() == core.VarDesc.VarType.FP32)
    h = fluid.layers.fc(input=fluid.layers.elementwise_add(x, feat), size=3,
                        param_attr=fluid.ParamAttr(initializer=fluid.initializer.Constant(0.1)))
    loss = fluid.layers.reduce_mean(h)

for op in main.global_block().ops:
    d = op.desc
    print(d.type(), d.input_arg_names(), d.output_arg_names())
print('axis', main.global_block().ops[-2].desc.attr('axis'), main.global_block().ops[-2].desc.has_attr('axis'))
print('w persistable', main.global_block().var('fc_0.w_0').desc.persistable(), h.desc.shape())

exe = fluid.Executor(fluid.CPUPlace())
exe.run(startup)
out, = exe.run(main, feed={'x': np.arange(6, dtype='float32').reshape(3, 2)}, fetch_list=[loss])
print('loss', np.round(out, 5))
