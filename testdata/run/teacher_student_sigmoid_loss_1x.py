# A 2019 (Paddle 1.6) CTR distillation script: the student's click logit
# trained with fluid.layers.teacher_student_sigmoid_loss, each label
# carrying the click and, for distilled samples, the teacher's score
# (-2: no click; -1: click; z + score in [0, 2): click z with the teacher's
# score), logits beyond the soft-max bounds taking no gradient.
import numpy as np
import paddle.fluid as fluid

rng = np.random.RandomState(8)
FEAT = rng.uniform(-1, 1, (8, 5)).astype('float32')
LABEL = np.array([[-2.0], [-1.0], [0.35], [1.8], [-2.0], [1.1], [0.05], [-1.0]], 'float32')
W = rng.uniform(-0.6, 0.6, (5, 1)).astype('float32')

feat = fluid.layers.data(name='feat', shape=[5], dtype='float32')
label = fluid.layers.data(name='label', shape=[1], dtype='float32')
logit = fluid.layers.fc(feat, size=1, param_attr=fluid.ParamAttr(
    initializer=fluid.initializer.NumpyArrayInitializer(W)),
    bias_attr=fluid.ParamAttr(initializer=fluid.initializer.Constant(0.1)))
loss_rows = fluid.layers.teacher_student_sigmoid_loss(logit, label)
loss = fluid.layers.mean(loss_rows)
narrow = fluid.layers.nn.teacher_student_sigmoid_loss(logit, label, soft_max_up_bound=0.3,
                                                      soft_max_lower_bound=-0.3)
fluid.optimizer.SGD(learning_rate=0.5).minimize(loss)
print("loss rows:", loss_rows.shape)

exe = fluid.Executor(fluid.CPUPlace())
exe.run(fluid.default_startup_program())
for step in range(5):
    l, rows, n = exe.run(feed={'feat': FEAT, 'label': LABEL},
                         fetch_list=[loss, loss_rows, narrow])
    print("step %d loss %.6f rows %s narrow sum %.6f" % (
        step, float(np.array(l).ravel()[0]), np.round(rows.ravel().astype('float64'), 4).tolist(),
        float(n.sum())))

prog, startup = fluid.Program(), fluid.Program()
with fluid.program_guard(prog, startup):
    x = fluid.layers.data(name='x', shape=[1], dtype='float32')
    x.stop_gradient = False
    lab = fluid.layers.data(name='lab', shape=[1], dtype='float32')
    out = fluid.layers.teacher_student_sigmoid_loss(x, lab, soft_max_up_bound=3.0,
                                                    soft_max_lower_bound=-3.0)
    dx, = fluid.backward.gradients([fluid.layers.reduce_sum(out)], [x])
xs = np.array([[0.5], [-1.2], [2.0], [0.3], [4.0], [-5.0], [1.5]], 'float32')
ls = np.array([[-2.0], [-1.0], [-0.5], [0.3], [1.7], [0.6], [1.0]], 'float32')
o, g = exe.run(prog, feed={'x': xs, 'lab': ls}, fetch_list=[out, dx])
print("loss", np.round(o.ravel().astype('float64'), 6).tolist())
print("grad", np.round(g.ravel().astype('float64'), 6).tolist())
