# 06: training. Seed 003's linear regression, y = 2x + 1 from noisy
# samples, trained with SGD: the backward ops and the optimizer's updates
# are ops of the main program, built by `minimize`.
#
#     fluidc run examples/scripts/06_training.py
#
import numpy as np
import paddle.fluid as fluid

# Seeding the startup program before the layers are built makes their
# random initial weights the same on every run (and the same as Paddle's).
fluid.default_startup_program().random_seed = 1

x = fluid.layers.data(name='x', shape=[1], dtype='float32')
y = fluid.layers.data(name='y', shape=[1], dtype='float32')
y_predict = fluid.layers.fc(input=x, size=1, act=None)
cost = fluid.layers.square_error_cost(input=y_predict, label=y)
avg_cost = fluid.layers.mean(cost)
fluid.optimizer.SGD(learning_rate=0.1).minimize(avg_cost)

# The startup program initializes the weights.
exe = fluid.Executor(fluid.CPUPlace())
exe.run(fluid.default_startup_program())

rng = np.random.RandomState(0)
for step in range(60):
    xs = rng.uniform(-1, 1, size=(16, 1)).astype('float32')
    ys = (2 * xs + 1 + rng.normal(0, 0.05, size=(16, 1))).astype('float32')
    loss, = exe.run(feed={'x': xs, 'y': ys}, fetch_list=[avg_cost])
    if step % 20 == 0 or step == 59:
        print("step %2d: loss %.4f" % (step, float(loss)))

w = fluid.global_scope().find_var('fc_0.w_0').get_tensor()
b = fluid.global_scope().find_var('fc_0.b_0').get_tensor()
print("learned w = %.2f, b = %.2f" % (np.array(w)[0][0], np.array(b)[0]))
