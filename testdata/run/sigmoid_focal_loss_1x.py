# A 2019 (Paddle 1.6) RetinaNet-style classification head trained with
# fluid.layers.sigmoid_focal_loss: anchors labelled 1..C (a class), 0
# (background) or -1 (ignored), the loss summed and divided by the number
# of foreground anchors (fg_num, an int32 count computed in the program),
# the head's bias starting at the usual prior -log((1 - pi) / pi).
import math

import numpy as np
import paddle.fluid as fluid

C = 4
rng = np.random.RandomState(21)
FEAT = rng.uniform(-1, 1, (10, 6)).astype('float32')
LABELS = np.array([[1], [0], [0], [3], [-1], [0], [4], [0], [2], [-1]], 'int32')
W = rng.uniform(-0.5, 0.5, (6, C)).astype('float32')

feat = fluid.layers.data(name='feat', shape=[6], dtype='float32')
label = fluid.layers.data(name='label', shape=[1], dtype='int32')
prior = -math.log((1 - 0.1) / 0.1)
logits = fluid.layers.fc(feat, size=C, param_attr=fluid.ParamAttr(
    initializer=fluid.initializer.NumpyArrayInitializer(W)),
    bias_attr=fluid.ParamAttr(initializer=fluid.initializer.Constant(prior)))
fg_num = fluid.layers.reduce_sum(fluid.layers.cast(
    fluid.layers.greater_than(label, fluid.layers.fill_constant([1], 'int32', 0)), 'int32'))
loss_map = fluid.layers.sigmoid_focal_loss(logits, label, fg_num, gamma=2.0, alpha=0.25)
loss = fluid.layers.reduce_sum(loss_map)
soft = fluid.layers.detection.sigmoid_focal_loss(logits, label, fg_num, gamma=0.5, alpha=0.5)
fluid.optimizer.SGD(learning_rate=0.5).minimize(loss)
print("loss map:", loss_map.shape, "fg_num:", fg_num.shape)

exe = fluid.Executor(fluid.CPUPlace())
exe.run(fluid.default_startup_program())
for step in range(6):
    l, m, s, n = exe.run(feed={'feat': FEAT, 'label': LABELS},
                         fetch_list=[loss, loss_map, soft, fg_num])
    print("step %d fg %d loss %.6f ignored rows %s soft %.6f" % (
        step, int(n[0]), float(np.array(l).ravel()[0]),
        float(np.abs(m[[4, 9]]).sum()), float(s.sum())))
print("last loss map row 0:", np.round(m[0].astype('float64'), 6).tolist())

# The gradient of the loss with respect to the logits.
prog, startup = fluid.Program(), fluid.Program()
with fluid.program_guard(prog, startup):
    x = fluid.layers.data(name='x', shape=[3], dtype='float32')
    x.stop_gradient = False
    lab = fluid.layers.data(name='lab', shape=[1], dtype='int32')
    fg = fluid.layers.data(name='fg', shape=[1], dtype='int32', append_batch_size=False)
    out = fluid.layers.sigmoid_focal_loss(x, lab, fg)
    dx, = fluid.backward.gradients([fluid.layers.reduce_sum(out)], [x])
xs = np.array([[0.5, -1.0, 2.0], [-3.0, 0.2, 0.7], [1.0, 1.0, -0.5], [4.0, -2.0, 0.3]], 'float32')
o, g = exe.run(prog, feed={'x': xs, 'lab': np.array([[1], [0], [-1], [3]], 'int32'),
                           'fg': np.array([0], 'int32')}, fetch_list=[out, dx])
print("loss", np.round(o.astype('float64'), 6).tolist())
print("grad", np.round(g.astype('float64'), 6).tolist())
