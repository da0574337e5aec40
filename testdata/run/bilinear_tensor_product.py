# A neural tensor network (2019's knowledge-graph scorers): the head and
# tail entity embeddings meet in fluid.layers.bilinear_tensor_product, one
# slice of the weight per relation feature, then a linear score trained a
# few SGD steps on a margin loss; a float64 pair without a bias is checked
# once, and the layer's output named.
from __future__ import print_function

import numpy as np
import paddle.fluid as fluid


def fmt(values):
    return ' '.join('%.4f' % v for v in np.array(values).flatten())


main = fluid.Program()
startup = fluid.Program()
startup.random_seed = 7
with fluid.program_guard(main, startup):
    head = fluid.layers.data(name='head', shape=[1], dtype='int64')
    tail = fluid.layers.data(name='tail', shape=[1], dtype='int64')
    bad = fluid.layers.data(name='bad', shape=[1], dtype='int64')
    table = fluid.ParamAttr(name='entity_emb')
    h = fluid.layers.embedding(head, size=[10, 6], param_attr=table)
    t = fluid.layers.embedding(tail, size=[10, 6], param_attr=table)
    b = fluid.layers.embedding(bad, size=[10, 6], param_attr=table)

    def score(left, right):
        rel = fluid.layers.bilinear_tensor_product(
            left, right, size=4, act='tanh',
            param_attr=fluid.ParamAttr(name='ntn_w'), bias_attr=fluid.ParamAttr(name='ntn_b'))
        return fluid.layers.fc(rel, size=1, param_attr='u_w', bias_attr=False)

    pos = score(h, t)
    neg = score(h, b)
    loss = fluid.layers.mean(fluid.layers.relu(1.0 - pos + neg))
    fluid.optimizer.SGD(learning_rate=0.5).minimize(loss)

    x64 = fluid.layers.data(name='x64', shape=[3], dtype='float64')
    y64 = fluid.layers.data(name='y64', shape=[2], dtype='float64')
    plain = fluid.layers.bilinear_tensor_product(x64, y64, size=2, bias_attr=False,
                                                 name='plain_btp')
    print(pos.shape, plain.shape, plain.name)
    print(sorted(p.name for p in main.global_block().all_parameters()))

exe = fluid.Executor(fluid.CPUPlace())
exe.run(startup)
feed = {
    'head': np.array([[1], [2], [3], [4]], dtype='int64'),
    'tail': np.array([[5], [6], [7], [8]], dtype='int64'),
    'bad': np.array([[9], [0], [5], [1]], dtype='int64'),
    'x64': np.arange(12).reshape(4, 3) * 0.25 - 1.0,
    'y64': np.linspace(-1.0, 1.0, 8).reshape(4, 2),
}
scope = fluid.global_scope()
p, = exe.run(main, feed=feed, fetch_list=[plain])
w = np.array(scope.find_var('plain_btp.w_0').get_tensor())
print(p.dtype, w.shape, fmt(p))
print('numpy', fmt([[feed['x64'][i].dot(w[k]).dot(feed['y64'][i]) for k in range(2)]
                   for i in range(4)]))
for step in range(4):
    l, sp, sn = exe.run(main, feed=feed, fetch_list=[loss, pos, neg])
    print('step %d loss %.4f pos %s neg %s' % (step, float(l[0]), fmt(sp), fmt(sn)))
print('ntn_b', fmt(np.array(scope.find_var('ntn_b').get_tensor())))
print('ntn_w[0][0]', fmt(np.array(scope.find_var('ntn_w').get_tensor())[0][0]))
