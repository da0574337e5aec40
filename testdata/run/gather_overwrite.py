# layers.gather with a repeated index, trained: the rows of a parameter
# table picked by ids (as 2018-19 programs picked embedding rows or class
# centers with gather). 1.x's CPU gradient of a repeated id kept the last
# row's gradient (overwrite=True, 1.7's default and what 1.0-1.6 always
# did); overwrite=False sums them.
import numpy as np
import paddle.fluid as fluid
import paddle.fluid.layers as layers

table_values = (np.arange(15, dtype='float32').reshape(5, 3) - 7.0) / 10.0
ids = np.array([3, 1, 3, 0, 3], dtype='int64')
targets = np.linspace(-1.0, 1.0, 15, dtype='float32').reshape(5, 3)

for overwrite in [None, True, False]:
    main, startup = fluid.Program(), fluid.Program()
    with fluid.program_guard(main, startup):
        idx = layers.data(name='idx', shape=[5], dtype='int64', append_batch_size=False)
        y = layers.data(name='y', shape=[5, 3], dtype='float32', append_batch_size=False)
        table = layers.create_parameter(
            shape=[5, 3], dtype='float32', name='table_%s' % overwrite,
            default_initializer=fluid.initializer.NumpyArrayInitializer(table_values))
        if overwrite is None:
            rows = layers.gather(table, idx)
        else:
            rows = layers.gather(table, idx, overwrite=overwrite)
        loss = layers.reduce_sum(layers.square(layers.elementwise_sub(rows, y)))
        fluid.optimizer.SGD(learning_rate=0.1).minimize(loss)
    exe = fluid.Executor(fluid.CPUPlace())
    scope = fluid.Scope()
    with fluid.scope_guard(scope):
        exe.run(startup)
        for step in range(3):
            l, g = exe.run(main, feed={'idx': ids, 'y': targets},
                           fetch_list=[loss, table.name + '@GRAD'])
            print(overwrite, step, np.round(l, 5), np.round(g, 4).tolist())
        print(np.round(np.array(scope.find_var(table.name).get_tensor()), 4).tolist())
