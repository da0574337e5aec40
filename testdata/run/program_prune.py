# Program.prune(targets) (1.x; `_prune` from 1.2): a new program with only
# the ops the targets need. A target Variable stands for the first op that
# writes it, an Operator for itself; the ops they read from stay, the rest
# and the variables no kept op names go; the program pruned is unchanged.
import numpy as np
import paddle.fluid as fluid

main = fluid.Program()
startup = fluid.Program()
with fluid.program_guard(main, startup):
    x = fluid.layers.data(name='x', shape=[2], dtype='float32')
    y = fluid.layers.data(name='y', shape=[1], dtype='float32')
    doubled = fluid.layers.scale(x, scale=2.0)
    shifted = fluid.layers.scale(doubled, scale=1.0, bias=1.0)
    square = fluid.layers.elementwise_mul(doubled, doubled)
    side = fluid.layers.reduce_sum(shifted)
    pred = fluid.layers.fc(input=square, size=1,
                           param_attr=fluid.ParamAttr(
                               initializer=fluid.initializer.Constant(0.5)))
    loss = fluid.layers.mean(fluid.layers.square_error_cost(input=pred, label=y))
    fluid.optimizer.SGD(learning_rate=0.1).minimize(loss)

n_ops = len(main.global_block().ops)


def show(title, prog):
    block = prog.global_block()
    print(title, [op.type for op in block.ops])
    print('  vars', sorted(block.vars))
    print('  params', sorted(p.name for p in block.all_parameters()))


show('square', main.prune(square))
show('square+side', main.prune([square, side]))
show('loss', main.prune([loss]))
show('by name', main.prune([side.name]))
mul_op = [op for op in main.global_block().ops if op.type == 'elementwise_mul'][0]
show('op', main.prune(mul_op))
print(len(main.global_block().ops) == n_ops)

# The pruned program runs: square = (2x)^2, side = sum(2x + 1).
exe = fluid.Executor(fluid.CPUPlace())
exe.run(startup)
feed = {'x': np.array([[1, -2], [0.5, 3]], dtype='float32')}
pruned = main.prune([square, side])
got = exe.run(pruned, feed=feed, fetch_list=[square.name, side.name])
print([np.array(g).ravel().tolist() for g in got])
inference = main.prune([pred])
p, = exe.run(inference, feed=feed, fetch_list=[pred.name])
print(np.array(p).ravel().tolist())

for bad in (x, 3):
    try:
        main.prune(bad)
    except ValueError as e:
        print('ValueError:', e)
