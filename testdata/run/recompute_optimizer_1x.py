# A 2019 (Paddle 1.6) script: a deep MLP classifier trained with
# fluid.optimizer.RecomputeOptimizer around Adam, the hidden layers set as
# checkpoints with _set_checkpoints. Recompute only trades memory for time,
# so the same network trained with plain Adam from the same weights must
# give the same losses and weights. Also the two-step form (backward with
# checkpoints, then apply_optimize), append_backward(checkpoints=...) and
# the unsupported load().
import numpy as np
import paddle.fluid as fluid

rng = np.random.RandomState(7)
W1 = rng.uniform(-0.5, 0.5, (6, 16)).astype('float32')
W2 = rng.uniform(-0.5, 0.5, (16, 16)).astype('float32')
W3 = rng.uniform(-0.5, 0.5, (16, 3)).astype('float32')
XS = rng.uniform(-1, 1, (12, 6)).astype('float32')
YS = rng.randint(0, 3, (12, 1)).astype('int64')


def init(name, value):
    return fluid.ParamAttr(name=name, initializer=fluid.initializer.NumpyArrayInitializer(value))


def mlp(prefix):
    x = fluid.layers.data(name='x', shape=[6], dtype='float32')
    label = fluid.layers.data(name='label', shape=[1], dtype='int64')
    h1 = fluid.layers.fc(x, size=16, act='tanh', param_attr=init(prefix + 'w1', W1),
                         bias_attr=False)
    h2 = fluid.layers.fc(h1, size=16, act='relu', param_attr=init(prefix + 'w2', W2),
                         bias_attr=False)
    pred = fluid.layers.fc(h2, size=3, act='softmax', param_attr=init(prefix + 'w3', W3),
                           bias_attr=False)
    loss = fluid.layers.mean(fluid.layers.cross_entropy(input=pred, label=label))
    return loss, h1, h2, pred


def train(main, startup, loss, weight, steps=6):
    exe = fluid.Executor(fluid.CPUPlace())
    scope = fluid.core.Scope()
    with fluid.scope_guard(scope):
        exe.run(startup)
        losses = []
        for i in range(steps):
            l, = exe.run(main, feed={'x': XS[i % 3 * 4:i % 3 * 4 + 4],
                                     'label': YS[i % 3 * 4:i % 3 * 4 + 4]},
                         fetch_list=[loss])
            losses.append(float(np.array(l).ravel()[0]))
        w = np.array(scope.find_var(weight).get_tensor())
    return losses, w


# RecomputeOptimizer.minimize
main, startup = fluid.Program(), fluid.Program()
with fluid.program_guard(main, startup):
    loss, h1, h2, pred = mlp('r_')
    opt = fluid.optimizer.RecomputeOptimizer(fluid.optimizer.Adam(learning_rate=0.05))
    opt._set_checkpoints([h1, h2])
    ops, params_grads = opt.minimize(loss)
print("params:", [p.name for p, g in params_grads])
print("grads:", [g.name for p, g in params_grads])
rec_losses, rec_w = train(main, startup, loss, 'r_w2')

# Plain Adam, same start
main, startup = fluid.Program(), fluid.Program()
with fluid.program_guard(main, startup):
    loss, h1, h2, pred = mlp('p_')
    fluid.optimizer.Adam(learning_rate=0.05).minimize(loss)
plain_losses, plain_w = train(main, startup, loss, 'p_w2')

for i, (a, b) in enumerate(zip(rec_losses, plain_losses)):
    print("step %d recompute %.5f plain %.5f" % (i, a, b))
print("same losses:", np.allclose(rec_losses, plain_losses, atol=1e-6))
print("same w2:", np.allclose(rec_w, plain_w, atol=1e-6),
      np.round(rec_w[0, :4].astype("float64"), 4).tolist())

# backward with checkpoints, then apply_optimize (1.6's two-step form)
main, startup = fluid.Program(), fluid.Program()
with fluid.program_guard(main, startup):
    loss, h1, h2, pred = mlp('s_')
    opt = fluid.optimizer.RecomputeOptimizer(fluid.optimizer.SGD(learning_rate=0.5))
    opt._set_checkpoints([h2])
    params_grads = opt.backward(loss, startup_program=startup)
    opt.apply_optimize(loss, startup_program=startup, params_grads=params_grads)
sgd_losses, _ = train(main, startup, loss, 's_w2', steps=4)
print("two-step sgd:", ["%.5f" % l for l in sgd_losses])

# append_backward with checkpoints gives the parameters' gradients
main, startup = fluid.Program(), fluid.Program()
with fluid.program_guard(main, startup):
    loss, h1, h2, pred = mlp('b_')
    pg = fluid.backward.append_backward(loss, checkpoints=[h1, pred])
    exe = fluid.Executor(fluid.CPUPlace())
    exe.run(startup)
    grads = exe.run(main, feed={'x': XS[:4], 'label': YS[:4]}, fetch_list=[g for _, g in pg])
print("append_backward:", [p.name for p, _ in pg],
      [round(float(np.abs(g).sum()), 4) for g in grads])

try:
    opt.load({})
except NotImplementedError as e:
    print("load:", e)
