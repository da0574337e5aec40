# 1.x's normalizing and loss layers as 2018-19 models used them: a
# Transformer-style block (fc, layer_norm over the features, prelu) with
# label_smooth'ed one-hot targets and soft-label cross_entropy, trained
# with Adam; an l2_normalize'd embedding head with huber_loss; pad and
# sum; and layer_norm's own variants (no scale or shift, a later axis).
from __future__ import print_function

import numpy as np
import paddle.fluid as fluid


def fmt(values, digits=5):
    form = '%.' + str(digits) + 'f'
    return ' '.join(form % v for v in np.array(values).flatten())


main = fluid.Program()
startup = fluid.Program()
startup.random_seed = 11
with fluid.program_guard(main, startup):
    x = fluid.layers.data(name='x', shape=[6], dtype='float32')
    label = fluid.layers.data(name='label', shape=[1], dtype='int64')
    hidden = fluid.layers.fc(input=x, size=8)
    normed = fluid.layers.layer_norm(hidden, begin_norm_axis=1)
    activated = fluid.layers.prelu(normed, mode='all')
    logits = fluid.layers.fc(input=activated, size=4, act='softmax')
    smoothed = fluid.layers.label_smooth(
        label=fluid.layers.one_hot(input=label, depth=4), epsilon=0.1)
    cost = fluid.layers.cross_entropy(logits, smoothed, soft_label=True)
    avg_cost = fluid.layers.mean(cost)

    target = fluid.layers.data(name='target', shape=[1], dtype='float32')
    direction = fluid.layers.l2_normalize(hidden, axis=1)
    score = fluid.layers.fc(input=direction, size=1)
    huber = fluid.layers.huber_loss(input=score, label=target, delta=0.5)
    avg_huber = fluid.layers.mean(huber)

    total = fluid.layers.sum([avg_cost, avg_huber])
    fluid.optimizer.Adam(learning_rate=0.05).minimize(total)

    plain = fluid.layers.layer_norm(hidden, scale=False, shift=False, epsilon=1e-3)
    grid = fluid.layers.reshape(hidden, shape=[-1, 2, 4])
    by_row = fluid.layers.layer_norm(grid, begin_norm_axis=2, act='relu')
    padded = fluid.layers.pad(grid, paddings=[0, 0, 1, 0, 0, 2], pad_value=-1.0)
    per_channel = fluid.layers.prelu(grid, mode='channel')

exe = fluid.Executor(fluid.CPUPlace())
exe.run(startup)
rng = np.random.RandomState(5)
xs = rng.uniform(-1, 1, size=(12, 6)).astype('float32')
labels = (np.abs(xs[:, :2]).sum(axis=1) * 2).astype('int64').reshape(-1, 1) % 4
targets = xs[:, 2:3] * 1.5
feed = {'x': xs, 'label': labels, 'target': targets}
for step in range(8):
    c, h, t = exe.run(main, feed=feed, fetch_list=[avg_cost, avg_huber, total])
    print('step %d cost %.5f huber %.5f total %.5f' % (step, float(c), float(h), float(t)))

n, r, p, ch, s, d = exe.run(main, feed=feed,
                            fetch_list=[plain, by_row, padded, per_channel, smoothed, direction])
print('plain mean %s var %s' % (fmt(np.abs(n.mean(axis=1)[:3])), fmt(n.var(axis=1)[:3], 3)))
print('by_row', r.shape, fmt(r[0]))
print('padded', p.shape, fmt(p[0], 3))
print('per_channel', ch.shape, fmt(ch[1, 0]))
print('smoothed', fmt(s[:2]))
print('unit rows', fmt((d * d).sum(axis=1)[:4]))
alpha = fluid.global_scope().find_var('prelu_0.w_0').get_tensor()
print('alpha', fmt(np.array(alpha)))
