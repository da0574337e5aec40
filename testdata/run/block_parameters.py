# Parameters made on a block as 2018 programs made them by hand:
# Block.create_parameter (its initializer in the startup program, a
# regularizer on the main program's parameter), Block.all_parameters, and
# fluid.framework.grad_var_name naming a gradient to fetch. The optimizer
# adds each parameter's own regularizer to its gradient, as 1.x did.
import numpy as np
import paddle.fluid as fluid
from paddle.fluid.framework import grad_var_name

print(grad_var_name('w'), fluid.framework.grad_var_name('fc_0.b_0'))

main = fluid.Program()
startup = fluid.Program()
with fluid.program_guard(main, startup):
    x = fluid.layers.data(name='x', shape=[3], dtype='float32')
    startup.global_block().create_parameter(
        name='w', shape=[3], dtype='float32',
        initializer=fluid.initializer.Constant(1.0))
    w = main.global_block().create_parameter(
        name='w', shape=[3], dtype='float32',
        regularizer=fluid.regularizer.L2Decay(0.5))
    startup.global_block().create_parameter(
        name='v', shape=[3], dtype='float32',
        initializer=fluid.initializer.Constant(1.0))
    v = main.global_block().create_parameter(name='v', shape=[3], dtype='float32')
    y = fluid.layers.elementwise_mul(x, w) + fluid.layers.elementwise_mul(x, v)
    loss = fluid.layers.mean(fluid.layers.reduce_sum(y, dim=1))
    fluid.optimizer.SGD(learning_rate=0.1).minimize(loss)

block = main.global_block()
print(sorted(p.name for p in block.all_parameters()))
print(sorted(p.name for p in startup.global_block().all_parameters()))
print(w.shape, w.persistable, w.trainable, w.regularizer is not None, v.regularizer is None)

exe = fluid.Executor(fluid.CPUPlace())
exe.run(startup)
feed = {'x': np.array([[1, 2, 3]], dtype='float32')}
for step in range(2):
    gw, gv, wv, vv = exe.run(main, feed=feed, fetch_list=[
        block.var(grad_var_name('w')), block.var(grad_var_name(v.name)), w, v])
    # step 0 by hand: dloss/dw = dloss/dv = x^T = [1, 2, 3]; w's gradient
    # gets 0.5 * w = 0.5 added: [1.5, 2.5, 3.5], so w = 1 - 0.1 * that;
    # v = 1 - 0.1 * [1, 2, 3].
    print(step, [['%.4f' % f for f in a.ravel()] for a in (gw, gv, wv, vv)])
