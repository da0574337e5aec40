# BERT-style feed-forward blocks of 2019 (ERNIE's `hidden_act='gelu'`):
# fc(act='gelu') appends Paddle's gelu op, trained a few SGD steps; the
# op's tanh approximation (`approximate`) run on its own.
import numpy as np
import paddle.fluid as fluid

fluid.default_startup_program().random_seed = 11
x = fluid.layers.data(name='x', shape=[6], dtype='float32')
y = fluid.layers.data(name='y', shape=[1], dtype='float32')
init = fluid.initializer.Uniform(-0.8, 0.8, seed=3)
h = fluid.layers.fc(x, size=8, act='gelu', param_attr=fluid.ParamAttr(initializer=init))
pred = fluid.layers.fc(h, size=1, param_attr=fluid.ParamAttr(initializer=init))
loss = fluid.layers.mean(fluid.layers.square_error_cost(pred, y))
fluid.optimizer.SGD(learning_rate=0.1).minimize(loss)
print([op.type for op in fluid.default_main_program().global_block().ops][:4])

block = fluid.default_main_program().global_block()
approx = block.create_var(name='approx', dtype='float32')
block.append_op(type='gelu', inputs={'X': x}, outputs={'Out': approx},
                attrs={'approximate': True})

exe = fluid.Executor(fluid.CPUPlace())
exe.run(fluid.default_startup_program())
rng = np.random.RandomState(2)
xs = rng.uniform(-3, 3, (4, 6)).astype('float32')
ys = rng.uniform(-1, 1, (4, 1)).astype('float32')
for step in range(3):
    l, hv, av = exe.run(feed={'x': xs, 'y': ys}, fetch_list=[loss, h, 'approx'])
    print(step, np.round(l, 5), np.round(hv[0, :4], 5).tolist(), np.round(av[1, :4], 5).tolist())
