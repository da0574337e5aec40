# fluid.memory_optimize / fluid.release_memory as 2018 training scripts
# called them, after minimize and before the startup run: they change no
# result, so training goes on exactly as without them. (1.x's ran a reuse
# analysis whose log print_log=True printed, and release_memory added
# delete_var ops; from 1.6 both did nothing, as fluidc's do.)
import numpy as np
import paddle.fluid as fluid


def train(optimize):
    main = fluid.Program()
    startup = fluid.Program()
    with fluid.program_guard(main, startup):
        x = fluid.layers.data(name='x', shape=[2], dtype='float32')
        y = fluid.layers.data(name='y', shape=[1], dtype='float32')
        hidden = fluid.layers.fc(input=x, size=3, act='relu',
                                 param_attr=fluid.ParamAttr(
                                     initializer=fluid.initializer.Constant(0.5)))
        pred = fluid.layers.fc(input=hidden, size=1,
                               param_attr=fluid.ParamAttr(
                                   initializer=fluid.initializer.Constant(-0.25)))
        loss = fluid.layers.mean(fluid.layers.square_error_cost(input=pred, label=y))
        fluid.optimizer.SGD(learning_rate=0.05).minimize(loss)
    if optimize == 'memory_optimize':
        fluid.memory_optimize(main)
        fluid.memory_optimize(main, skip_opt_set=set([loss.name]), print_log=True, level=1)
    elif optimize == 'release_memory':
        fluid.release_memory(main)
        fluid.release_memory(main, skip_opt_set=[pred.name])
    exe = fluid.Executor(fluid.CPUPlace())
    exe.run(startup)
    feed = {'x': np.array([[1, 2], [0, 1], [2, 0]], dtype='float32'),
            'y': np.array([[1], [0], [2]], dtype='float32')}
    losses = []
    for step in range(4):
        l, = exe.run(main, feed=feed, fetch_list=[loss])
        losses.append('%.6f' % float(np.array(l).reshape(-1)[0]))
    print(optimize, losses)


for way in ('none', 'memory_optimize', 'release_memory'):
    train(way)

try:
    fluid.memory_optimize(fluid.default_main_program(), level=2)
except ValueError as e:
    print('ValueError:', e)
