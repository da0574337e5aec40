# A 2019 CTR model's head (DeepFM and Wide&Deep scripts): a sigmoid click
# probability, fluid.layers.log_loss against a float label, averaged, and
# trained with Adam; also log_loss with its own epsilon, fetched as is.
from __future__ import print_function
import numpy as np
import paddle.fluid as fluid

fluid.default_startup_program().random_seed = 7
dense = fluid.layers.data(name='dense', shape=[5], dtype='float32')
label = fluid.layers.data(name='label', shape=[1], dtype='float32')
hidden = fluid.layers.fc(input=dense, size=8, act='relu')
predict = fluid.layers.fc(input=hidden, size=1, act='sigmoid')
cost = fluid.layers.log_loss(input=predict, label=label)
avg_cost = fluid.layers.reduce_mean(cost)
loose = fluid.layers.log_loss(predict, label, epsilon=0.1)
fluid.optimizer.Adam(learning_rate=0.02).minimize(avg_cost)

exe = fluid.Executor(fluid.CPUPlace())
exe.run(fluid.default_startup_program())
rng = np.random.RandomState(3)
x = rng.rand(16, 5).astype('float32')
y = (x.sum(axis=1, keepdims=True) > 2.5).astype('float32')
for step in range(10):
    c, l = exe.run(feed={'dense': x, 'label': y}, fetch_list=[avg_cost, loose])
    print('step %d avg log loss %.5f, eps 0.1 first rows %s'
          % (step, float(c), np.round(l[:3, 0], 4).tolist()))
