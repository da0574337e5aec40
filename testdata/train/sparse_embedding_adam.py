# A CTR-style model on sparse embeddings trained with Adam, as 2018 CTR
# scripts wrote it: `is_sparse=True` tables make SELECTED_ROWS gradients,
# and Paddle's Adam treats the rows a batch did not touch differently
# from zero rows (their moments decay; the beta powers advance before
# the update). One table is looked up twice (its two sparse gradients are
# summed), one has a padding_idx (a sparse gradient still carries the
# padding row), one has an L2 decay (the sum with the decay is dense: its
# gradient becomes `@NEWGRAD@`). A second program trains the same model
# with lazy_mode, which updates only the rows a batch has.
#
# Each batch has every table's last row: Paddle 3.3.1's non-lazy sparse
# functor reads one row id past the end of the gradient's rows when it
# does not, and its result then varies from run to run.
from __future__ import print_function
import numpy as np
import paddle.fluid as fluid



def ctr_model(lazy):
    slot_a = fluid.layers.data(name='slot_a', shape=[1], dtype='int64')
    slot_b = fluid.layers.data(name='slot_b', shape=[1], dtype='int64')
    user = fluid.layers.data(name='user', shape=[1], dtype='int64')
    label = fluid.layers.data(name='label', shape=[1], dtype='int64')
    shared = fluid.ParamAttr(name='shared_emb',
                             initializer=fluid.initializer.Uniform(-0.5, 0.5, seed=3))
    emb_a = fluid.layers.embedding(input=slot_a, size=[14, 4], is_sparse=True,
                                   param_attr=shared)
    emb_b = fluid.layers.embedding(input=slot_b, size=[14, 4], is_sparse=True,
                                   param_attr=shared)
    emb_u = fluid.layers.embedding(
        input=user, size=[6, 4], is_sparse=True, padding_idx=0,
        param_attr=fluid.ParamAttr(
            name='user_emb', initializer=fluid.initializer.Uniform(-0.5, 0.5, seed=5)))
    emb_r = fluid.layers.embedding(
        input=user, size=[6, 2], is_sparse=True,
        param_attr=fluid.ParamAttr(
            name='reg_emb', initializer=fluid.initializer.Uniform(-0.5, 0.5, seed=7),
            regularizer=fluid.regularizer.L2Decay(0.01)))
    feat = fluid.layers.concat(input=[emb_a, emb_b, emb_u, emb_r], axis=1)
    hidden = fluid.layers.fc(input=feat, size=8, act='tanh',
                             param_attr=fluid.ParamAttr(
                                 initializer=fluid.initializer.Uniform(-0.3, 0.3, seed=11)))
    pred = fluid.layers.fc(input=hidden, size=2, act='softmax',
                           param_attr=fluid.ParamAttr(
                               initializer=fluid.initializer.Uniform(-0.3, 0.3, seed=13)))
    loss = fluid.layers.mean(fluid.layers.cross_entropy(input=pred, label=label))
    fluid.optimizer.Adam(learning_rate=0.05, lazy_mode=lazy).minimize(loss)
    return loss


rng = np.random.RandomState(4)
batches = []
for step in range(8):
    n = 6
    slot_b = rng.randint(8, 14, size=(n, 1)).astype('int64')
    slot_b[-1] = 13
    user = rng.randint(0, 6, size=(n, 1)).astype('int64')
    user[-1] = 5
    batches.append({
        'slot_a': rng.randint(0, 6, size=(n, 1)).astype('int64'),
        'slot_b': slot_b,
        'user': user,
        'label': rng.randint(0, 2, size=(n, 1)).astype('int64'),
    })

place = fluid.CPUPlace()
for lazy in [False, True]:
    main = fluid.Program()
    startup = fluid.Program()
    with fluid.program_guard(main, startup):
        loss = ctr_model(lazy)
    scope = fluid.core.Scope()
    with fluid.scope_guard(scope):
        exe = fluid.Executor(place)
        exe.run(startup)
        for step, feed in enumerate(batches):
            loss_v, = exe.run(main, feed=feed, fetch_list=[loss])
            print("lazy %s step %d loss %.6f" % (lazy, step, float(loss_v)))
        for name in ['shared_emb', 'user_emb', 'reg_emb']:
            w = np.array(scope.find_var(name).get_tensor())
            print(name, 'row 0 sum %.6f' % w[0].sum(), 'all %.6f' % w.sum())
        # No batch has rows 6 and 7: they keep their initial values.
        w = np.array(scope.find_var('shared_emb').get_tensor())
        print('untouched rows sum %.6f' % w[6:8].sum())
