# fluid.layers.npair_loss (1.4-1.6) training two embedding towers with
# Momentum, and fluid.layers.rank (1.4+), the rank as an int32 constant.
import numpy as np
import paddle.fluid as fluid
import paddle.fluid.layers as layers

exe = fluid.Executor(fluid.CPUPlace())
main, startup = fluid.Program(), fluid.Program()
main.random_seed = startup.random_seed = 9
with fluid.program_guard(main, startup):
    a = layers.data(name='a', shape=[6, 5], dtype='float32', append_batch_size=False)
    p = layers.data(name='p', shape=[6, 5], dtype='float32', append_batch_size=False)
    lab = layers.data(name='lab', shape=[6], dtype='float32', append_batch_size=False)
    ea = layers.fc(input=a, size=4, act='tanh', param_attr=fluid.ParamAttr(name='wa'))
    ep = layers.fc(input=p, size=4, act='tanh', param_attr=fluid.ParamAttr(name='wp'))
    loss = layers.npair_loss(ea, ep, lab)
    loss_l2 = layers.npair_loss(anchor=ea, positive=ep, labels=lab, l2_reg=0.1)
    r = layers.rank(a)
    r2 = layers.rank(lab)
    fluid.optimizer.Momentum(learning_rate=0.2, momentum=0.9).minimize(loss)
print(loss.shape, loss_l2.shape, r.shape, r.dtype == fluid.core.VarDesc.VarType.INT32)

rng = np.random.RandomState(4)
labels = np.array([0, 1, 2, 0, 1, 3], dtype='float32')
centers = rng.uniform(-1, 1, (4, 5)).astype('float32')
av = (centers[labels.astype('int64')] + rng.normal(0, 0.3, (6, 5))).astype('float32')
pv = (centers[labels.astype('int64')] + rng.normal(0, 0.3, (6, 5))).astype('float32')
with fluid.scope_guard(fluid.Scope()):
    exe.run(startup)
    for step in range(5):
        l, l2, rv, rv2, g = exe.run(main, feed={'a': av, 'p': pv, 'lab': labels},
                                    fetch_list=[loss, loss_l2, r, r2, 'wa@GRAD'])
        print(step, np.round(l, 6), np.round(l2, 6), np.round(g.ravel()[:3], 5))
    print(rv, rv.dtype, rv2)
