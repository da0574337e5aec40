# One parameter used twice: two fc layers share the weight 'shared_w', so
# its gradient is the sum of two contributions (the backward pass renames
# them @RENAME@ and adds a `sum`).
from __future__ import print_function
import numpy as np
import paddle.fluid as fluid

fluid.default_startup_program().random_seed = 5

rng = np.random.RandomState(4)
a_data = rng.rand(6, 3).astype('float32')
b_data = rng.rand(6, 3).astype('float32')
t_data = rng.rand(6, 3).astype('float32')

a = fluid.layers.data(name='a', shape=[3], dtype='float32')
b = fluid.layers.data(name='b', shape=[3], dtype='float32')
t = fluid.layers.data(name='t', shape=[3], dtype='float32')
shared = fluid.ParamAttr(name='shared_w')
ha = fluid.layers.fc(input=a, size=3, param_attr=shared, bias_attr=False)
hb = fluid.layers.fc(input=b, size=3, param_attr=shared, bias_attr=False)
out = fluid.layers.elementwise_add(ha, hb)
avg_cost = fluid.layers.mean(fluid.layers.square_error_cost(input=out, label=t))

fluid.optimizer.SGD(learning_rate=0.1).minimize(avg_cost)

exe = fluid.Executor(fluid.CPUPlace())
exe.run(fluid.default_startup_program())
for step in range(10):
    loss, = exe.run(feed={'a': a_data, 'b': b_data, 't': t_data},
                    fetch_list=[avg_cost])
    print(step, loss)
