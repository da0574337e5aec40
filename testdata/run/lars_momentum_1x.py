# A 2019 (Paddle 1.6) large-batch style script: a small conv classifier
# trained with fluid.optimizer.LarsMomentum (layer-wise adaptive rates),
# its zero-initialized bias taking the plain rate until its norm is
# positive, a branch whose gradient is zero, an L2Decay regularizer, and
# LarsMomentumOptimizer without the LARS weight decay.
import numpy as np
import paddle.fluid as fluid

rng = np.random.RandomState(12)
CONV = rng.uniform(-0.4, 0.4, (4, 1, 3, 3)).astype('float32')
FC = rng.uniform(-0.3, 0.3, (64, 3)).astype('float32')
IMAGES = rng.uniform(0, 1, (8, 1, 4, 4)).astype('float32')
LABELS = rng.randint(0, 3, (8, 1)).astype('int64')


def build(optimizer, prefix):
    img = fluid.layers.data(name='img', shape=[1, 4, 4], dtype='float32')
    label = fluid.layers.data(name='label', shape=[1], dtype='int64')
    conv = fluid.layers.conv2d(img, num_filters=4, filter_size=3, padding=1, act='relu',
                               param_attr=fluid.ParamAttr(
                                   name=prefix + 'conv',
                                   initializer=fluid.initializer.NumpyArrayInitializer(CONV)),
                               bias_attr=fluid.ParamAttr(name=prefix + 'conv_b'))
    logits = fluid.layers.fc(conv, size=3, param_attr=fluid.ParamAttr(
        name=prefix + 'fc', initializer=fluid.initializer.NumpyArrayInitializer(FC)),
        bias_attr=False)
    dead = fluid.layers.fc(fluid.layers.scale(img, scale=0.0), size=3, param_attr=fluid.ParamAttr(
        name=prefix + 'dead', initializer=fluid.initializer.Constant(0.5)), bias_attr=False)
    loss = fluid.layers.mean(fluid.layers.softmax_with_cross_entropy(logits + dead, label))
    optimizer.minimize(loss)
    return loss


exe = fluid.Executor(fluid.CPUPlace())
runs = [("lars", lambda: fluid.optimizer.LarsMomentum(learning_rate=0.5, momentum=0.9,
                                                      lars_coeff=0.01)),
        ("lars_l2", lambda: fluid.optimizer.LarsMomentumOptimizer(
            learning_rate=0.2, momentum=0.8, lars_coeff=0.02, lars_weight_decay=0.001,
            regularization=fluid.regularizer.L2Decay(0.01))),
        ("plain", lambda: fluid.optimizer.LarsMomentum(0.05, 0.9, lars_weight_decay=0.0))]
for prefix, make in runs:
    main, startup = fluid.Program(), fluid.Program()
    with fluid.program_guard(main, startup):
        loss = build(make(), prefix)
    scope = fluid.core.Scope()
    with fluid.scope_guard(scope):
        exe.run(startup)
        for step in range(5):
            l, = exe.run(main, feed={'img': IMAGES, 'label': LABELS}, fetch_list=[loss])
            print("%s step %d loss %.5f" % (prefix, step, float(np.array(l).ravel()[0])))
        for name in ('conv', 'conv_b', 'fc', 'dead'):
            w = np.array(scope.find_var(prefix + name).get_tensor()).astype('float64')
            print("  %s: sum %.5f first %s" % (name, w.sum(), np.round(w.ravel()[:3], 5).tolist()))
