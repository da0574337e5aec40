# fluid.layers.mse_loss (1.6) and dice_loss (since 2018) in training: a
# regression trained on mse_loss with SGD, and a per-pixel 3-class
# segmentation head (1x1 conv, softmax over the last axis) trained on
# dice_loss with Adam; the losses, the shapes and a gradient.
import numpy as np
import paddle.fluid as fluid
import paddle.fluid.layers as layers

exe = fluid.Executor(fluid.CPUPlace())

# mse_loss
main, startup = fluid.Program(), fluid.Program()
main.random_seed = startup.random_seed = 3
with fluid.program_guard(main, startup):
    x = layers.data(name='x', shape=[4], dtype='float32')
    y = layers.data(name='y', shape=[1], dtype='float32')
    pred = layers.fc(input=x, size=1, param_attr=fluid.ParamAttr(name='w'))
    loss = layers.mse_loss(pred, y)
    fluid.optimizer.SGD(learning_rate=0.1).minimize(loss)
print(loss.shape, [op.type for op in main.global_block().ops][:5])
rng = np.random.RandomState(0)
xs = rng.uniform(-1, 1, (6, 4)).astype('float32')
ys = (xs.dot(np.array([[0.5], [-0.3], [0.2], [0.1]])) + 0.05).astype('float32')
scope = fluid.Scope()
with fluid.scope_guard(scope):
    exe.run(startup)
    for step in range(4):
        l, g = exe.run(main, feed={'x': xs, 'y': ys}, fetch_list=[loss, 'w@GRAD'])
        print(step, np.round(l, 6), np.round(g.ravel(), 5))

# dice_loss
main, startup = fluid.Program(), fluid.Program()
main.random_seed = startup.random_seed = 5
with fluid.program_guard(main, startup):
    img = layers.data(name='img', shape=[4, 4, 2], dtype='float32')
    label = layers.data(name='label', shape=[4, 4, 1], dtype='int64')
    logits = layers.fc(input=img, size=3, num_flatten_dims=3,
                       param_attr=fluid.ParamAttr(name='seg_w'))
    prob = layers.softmax(logits)
    loss = layers.dice_loss(input=prob, label=label)
    loss2 = layers.dice_loss(prob, label, epsilon=0.5)
    fluid.optimizer.Adam(learning_rate=0.05).minimize(loss)
print(prob.shape, loss.shape, loss2.shape)
imgs = rng.uniform(-1, 1, (2, 4, 4, 2)).astype('float32')
labels = (imgs[..., :1] > 0).astype('int64') + (imgs[..., 1:] > 0.5).astype('int64')
with fluid.scope_guard(fluid.Scope()):
    exe.run(startup)
    for step in range(5):
        l, l2, g = exe.run(main, feed={'img': imgs, 'label': labels},
                           fetch_list=[loss, loss2, 'seg_w@GRAD'])
        print(step, np.round(l, 6), np.round(l2, 6), np.round(g.ravel()[:3], 5))
