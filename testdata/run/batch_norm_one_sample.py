# An RL agent of 2019 (PARL style) scores one observation with the same
# train-mode program that learns from batches: batch_norm then sees one
# element per channel, which 1.x passed through unnormalized (y = x, the
# running statistics untouched, the gradient straight back to x); batches
# of 3 are normalized as usual. Both trained with SGD.
import numpy as np
import paddle.fluid as fluid

fluid.default_startup_program().random_seed = 4
obs = fluid.layers.data(name='obs', shape=[5], dtype='float32')
target = fluid.layers.data(name='target', shape=[1], dtype='float32')
init = fluid.initializer.Uniform(-0.6, 0.6, seed=2)
h = fluid.layers.fc(obs, size=4, bias_attr=False, param_attr=fluid.ParamAttr(name='w1', initializer=init))
bn = fluid.layers.batch_norm(h, moving_mean_name='bn_mean', moving_variance_name='bn_var',
                             fuse_with_relu=False)
q = fluid.layers.fc(bn, size=1, param_attr=fluid.ParamAttr(name='w2', initializer=init))
loss = fluid.layers.mean(fluid.layers.square_error_cost(q, target))
fluid.optimizer.SGD(learning_rate=0.2).minimize(loss)

exe = fluid.Executor(fluid.CPUPlace())
exe.run(fluid.default_startup_program())
scope = fluid.global_scope()


def stat(name):
    return np.round(np.array(scope.find_var(name).get_tensor()), 5).tolist()


rng = np.random.RandomState(6)
for rows in [1, 3, 1]:
    x = rng.uniform(-1, 1, (rows, 5)).astype('float32')
    t = rng.uniform(-1, 1, (rows, 1)).astype('float32')
    hv, bv, l = exe.run(feed={'obs': x, 'target': t}, fetch_list=[h, bn, loss])
    print(rows, np.allclose(hv, bv), np.round(l, 5), np.round(bv[0], 4).tolist())
    print(' ', stat('bn_mean'), stat('bn_var'), stat('w1')[0])
