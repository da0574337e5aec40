# Pairwise learning to rank and box regression as the 2018-19
# PaddlePaddle/models scripts wrote them: one fc scorer shared by a left
# and a right document (the same parameter names), trained on
# fluid.layers.margin_rank_loss (labels +1/-1) and fluid.layers.rank_loss
# (RankNet, labels 0/1), plus a regression head on
# fluid.layers.smooth_l1 with inside/outside weights and sigma (as the
# detection models weighted their box targets), and a plain smooth_l1.
# Paddle 3.3.1 dropped the three ops: under Paddle the fluid2018 shim
# writes them out of ops 3.3.1 has, fluidc runs 1.x's ops, so numbers
# print rounded.
from __future__ import print_function

import numpy as np
import paddle.fluid as fluid


def fmt(values, digits=5):
    form = '%.' + str(digits) + 'f'
    return ' '.join(form % v for v in np.array(values).flatten())


def score(doc):
    hidden = fluid.layers.fc(input=doc, size=8, act='tanh',
                             param_attr=fluid.ParamAttr(name='hidden_w'),
                             bias_attr=fluid.ParamAttr(name='hidden_b'))
    return fluid.layers.fc(input=hidden, size=1,
                           param_attr=fluid.ParamAttr(name='score_w'),
                           bias_attr=fluid.ParamAttr(name='score_b'))


main = fluid.Program()
startup = fluid.Program()
startup.random_seed = 5
with fluid.program_guard(main, startup):
    left = fluid.layers.data(name='left', shape=[6], dtype='float32')
    right = fluid.layers.data(name='right', shape=[6], dtype='float32')
    sign = fluid.layers.data(name='sign', shape=[1], dtype='float32')
    prefer = fluid.layers.data(name='prefer', shape=[1], dtype='float32')
    box = fluid.layers.data(name='box', shape=[4], dtype='float32')
    inside = fluid.layers.data(name='inside', shape=[4], dtype='float32')
    outside = fluid.layers.data(name='outside', shape=[4], dtype='float32')

    left_score, right_score = score(left), score(right)
    margin_cost = fluid.layers.margin_rank_loss(sign, left_score, right_score, margin=0.2)
    ranknet_cost = fluid.layers.rank_loss(prefer, left_score, right_score)
    regress = fluid.layers.fc(input=left, size=4, param_attr='box_w', bias_attr='box_b')
    box_cost = fluid.layers.smooth_l1(regress, box, inside_weight=inside,
                                      outside_weight=outside, sigma=3.0)
    plain_cost = fluid.layers.smooth_l1(x=regress, y=box)
    print('shapes', margin_cost.shape, ranknet_cost.shape, box_cost.shape, plain_cost.shape)
    avg_cost = fluid.layers.mean(margin_cost) + fluid.layers.mean(ranknet_cost) \
        + fluid.layers.mean(box_cost)
    fluid.optimizer.SGD(learning_rate=0.05).minimize(avg_cost)

rng = np.random.RandomState(17)
n = 8
lx = rng.uniform(-1, 1, (n, 6)).astype('float32')
rx = rng.uniform(-1, 1, (n, 6)).astype('float32')
better = (lx.sum(axis=1) > rx.sum(axis=1)).reshape(n, 1)
feed = {
    'left': lx, 'right': rx,
    'sign': np.where(better, 1.0, -1.0).astype('float32'),
    'prefer': better.astype('float32'),
    'box': rng.uniform(-2, 2, (n, 4)).astype('float32'),
    'inside': (rng.uniform(0, 1, (n, 4)) > 0.3).astype('float32'),
    'outside': np.full((n, 4), 0.25, dtype='float32'),
}
params = ['hidden_w', 'hidden_b', 'score_w', 'score_b', 'box_w', 'box_b']

exe = fluid.Executor(fluid.CPUPlace())
exe.run(startup)
for step in range(8):
    m, r, b, p, c = exe.run(main, feed=feed,
                            fetch_list=[margin_cost, ranknet_cost, box_cost, plain_cost, avg_cost])
    total = sum(float(np.array(fluid.global_scope().find_var(name).get_tensor()).sum())
                for name in params)
    print('step %d cost %.5f margin %.5f ranknet %.5f box %.5f plain %.5f param sum %.4f'
          % (step, float(np.array(c).flatten()[0]), m.mean(), r.mean(), b.mean(), p.mean(),
             total))
    if step in (0, 7):
        print(' margin', m.shape, fmt(m, 4))
        print(' ranknet', r.shape, fmt(r, 4))
        print(' box', b.shape, fmt(b, 4))
        print(' plain', p.shape, fmt(p, 4))
