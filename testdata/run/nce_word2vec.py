# A 2018 word2vec (N-gram) model trained with fluid.layers.nce: four context
# words embedded with one shared table, concatenated, a tanh hidden layer,
# and the noise-contrastive loss of the next word against 3 negative words.
# The negatives are fixed (the op's custom_neg_classes, as Paddle's
# test_nce.py gives them) so that the costs do not depend on the sampler's
# draws; a per-sample weight scales each row's cost. Dense and is_sparse
# weights, a few SGD steps each, printing the costs and the nce bias.
from __future__ import print_function

import numpy as np
import paddle.fluid as fluid

DICT, EMB, HIDDEN, NEG = 12, 4, 6, 3


def fmt(values):
    return ' '.join('%.5f' % v for v in np.array(values).flatten())


def batches():
    rng = np.random.RandomState(3)
    out = []
    for _ in range(4):
        words = rng.randint(0, DICT, size=(5, 5)).astype('int64')
        weight = rng.uniform(0.5, 1.5, size=(5, 1)).astype('float32')
        out.append((words, weight))
    return out


def build(is_sparse):
    main, startup = fluid.Program(), fluid.Program()
    with fluid.program_guard(main, startup):
        words = [fluid.layers.data(name='w%d' % i, shape=[1], dtype='int64') for i in range(5)]
        weight = fluid.layers.data(name='weight', shape=[1], dtype='float32')
        embs = [fluid.layers.embedding(input=w, size=[DICT, EMB], param_attr='emb.w',
                                       is_sparse=is_sparse) for w in words[:4]]
        hidden = fluid.layers.fc(input=fluid.layers.concat(input=embs, axis=1), size=HIDDEN,
                                 act='tanh', param_attr='fc.w', bias_attr='fc.b')
        cost = fluid.layers.nce(input=hidden, label=words[4], num_total_classes=DICT,
                                sample_weight=weight, param_attr='nce.w', bias_attr='nce.b',
                                num_neg_samples=NEG, is_sparse=is_sparse)
        nce_op = [op for op in main.global_block().ops if op.type == 'nce'][0]
        nce_op._set_attr('custom_neg_classes', [1, 5, 9])
        avg_cost = fluid.layers.mean(cost)
        fluid.optimizer.SGD(learning_rate=0.5).minimize(avg_cost)
    return main, startup, words, weight, cost, avg_cost


def set_params(scope, place):
    rng = np.random.RandomState(11)
    shapes = {'emb.w': [DICT, EMB], 'fc.w': [4 * EMB, HIDDEN], 'fc.b': [HIDDEN],
              'nce.w': [DICT, HIDDEN], 'nce.b': [DICT, 1]}
    for name in sorted(shapes):
        value = rng.uniform(-0.5, 0.5, size=shapes[name]).astype('float32')
        scope.find_var(name).get_tensor().set(value, place)


def train(is_sparse):
    print('is_sparse=%s' % is_sparse)
    main, startup, words, weight, cost, avg_cost = build(is_sparse)
    place = fluid.CPUPlace()
    exe = fluid.Executor(place)
    scope = fluid.Scope()
    with fluid.scope_guard(scope):
        exe.run(startup)
        set_params(scope, place)
        for step, (batch, w) in enumerate(batches()):
            feed = dict(('w%d' % i, batch[:, i:i + 1]) for i in range(5))
            feed['weight'] = w
            c, a = exe.run(main, feed=feed, fetch_list=[cost, avg_cost])
            print('step %d costs %s avg %s' % (step, fmt(c), fmt(a)))
        print('nce.b', fmt(np.array(scope.find_var('nce.b').get_tensor())))
        print('nce.w row 5', fmt(np.array(scope.find_var('nce.w').get_tensor())[5]))


train(False)
train(True)
