# 1.6's layers.kldiv_loss: a student's log_softmax output distilled towards
# a teacher's distribution (some target entries zero), with each
# reduction; the batchmean loss trains the student a few steps.
import numpy as np
import paddle.fluid as fluid

fluid.default_startup_program().random_seed = 47
feat = fluid.layers.data(name='feat', shape=[6], dtype='float32')
teacher = fluid.layers.data(name='teacher', shape=[4], dtype='float32')
logits = fluid.layers.fc(input=feat, size=4)
log_prob = fluid.layers.log(fluid.layers.softmax(logits))
losses = [fluid.layers.kldiv_loss(log_prob, teacher, reduction=r)
          for r in ('batchmean', 'mean', 'sum', 'none')]
default = fluid.layers.kldiv_loss(x=log_prob, target=teacher)
print([l.shape for l in losses], default.shape)
fluid.optimizer.SGD(learning_rate=0.5).minimize(losses[0])
logits_grad = fluid.default_main_program().global_block().var(logits.name + '@GRAD')

exe = fluid.Executor(fluid.CPUPlace())
exe.run(fluid.default_startup_program())
t = np.array([[0.7, 0.1, 0.2, 0.0], [0.25, 0.25, 0.25, 0.25],
              [0.0, 0.0, 1.0, 0.0]]).astype('float32')
feed = {'feat': np.linspace(-1, 1, 18).reshape(3, 6).astype('float32'), 'teacher': t}
for step in range(4):
    out = exe.run(feed=feed, fetch_list=losses + [default, logits_grad])
    print(step, [np.round(o, 5).tolist() for o in out[:3]], np.round(out[4], 5).tolist())
print(np.round(out[3], 5).tolist())
print(np.round(out[5], 5).tolist())
