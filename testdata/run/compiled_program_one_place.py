# A CompiledProgram made data-parallel on one place given as a place, not a
# list (`with_data_parallel(places=fluid.CPUPlace())`, as a 2019 script
# comparing it with the plain Program did): 1.6 took it as [place]. Both
# programs train from the same seed and must fetch the same bias.
import numpy as np
import paddle.fluid as fluid


def build():
    main = fluid.Program()
    startup = fluid.Program()
    main.random_seed = 1
    startup.random_seed = 1
    scope = fluid.Scope()
    with fluid.program_guard(main, startup):
        with fluid.unique_name.guard():
            x = fluid.layers.data(name='x', shape=[4], dtype='float32')
            y = fluid.layers.data(name='y', shape=[1], dtype='float32')
            pred = fluid.layers.fc(input=x, size=1)
            loss = fluid.layers.mean(fluid.layers.square_error_cost(input=pred, label=y))
            fluid.optimizer.SGD(learning_rate=0.05).minimize(loss)
    with fluid.scope_guard(scope):
        exe.run(startup)
    return main, scope, loss


place = fluid.CPUPlace()
exe = fluid.Executor(place)
prog1, scope1, loss1 = build()
prog2, scope2, loss2 = build()
build_strategy = fluid.BuildStrategy()
build_strategy.fuse_all_optimizer_ops = True
exec_strategy = fluid.ExecutionStrategy()
exec_strategy.num_threads = 1
compiled = fluid.CompiledProgram(prog2).with_data_parallel(
    loss_name=loss2.name, build_strategy=build_strategy,
    exec_strategy=exec_strategy, places=place)

xs = np.array([[1, 0, 2, 1], [0, 1, 1, 3], [2, 2, 0, 1], [1, 1, 1, 1]], 'float32')
ys = xs.sum(axis=1, keepdims=True)
for step in range(3):
    with fluid.scope_guard(scope1):
        l1, b1 = exe.run(prog1, feed={'x': xs, 'y': ys}, fetch_list=[loss1, 'fc_0.b_0'])
    with fluid.scope_guard(scope2):
        l2, b2 = exe.run(compiled, feed={'x': xs, 'y': ys}, fetch_list=[loss2, 'fc_0.b_0'])
    print("step %d loss %.3f %s bias equal %s" % (step, l2[0], l2.shape, np.allclose(b1, b2)))
