# A sparse embedding (is_sparse=True, as the 2019 book's machine_translation
# and the CTR models built it) trained under GradientClipByGlobalNorm: 1.x
# (1.3+) merges the SelectedRows gradient (merge_selected_rows), takes its
# value tensor (get_tensor_from_selected_rows) for the squared norm, and
# scales the sparse gradient itself with elementwise_mul, so the optimizer
# still sees only the looked-up rows. Ids repeat within a batch. Adam (whose
# sparse update also moves the rows a batch lacks), Adam with 1.4's
# lazy_mode (which moves only the batch's rows, so the clipped gradient
# must still be sparse) and SGD, a few steps each, printing losses, the
# merged gradient and the table.
from __future__ import print_function

import numpy as np
import paddle.fluid as fluid

VOCAB, DIM = 12, 4


def fmt(values, digits=5):
    form = '%.' + str(digits) + 'f'
    return ' '.join(form % v for v in np.array(values).flatten())


def batches():
    rng = np.random.RandomState(7)
    out = []
    for step in range(4):
        ids = rng.randint(0, 6, size=(6, 1)).astype('int64')
        ids[1] = ids[0]  # a repeated id: its rows must be merged first
        # Every batch has the table's last row: Paddle 3.3.1's non-lazy
        # sparse Adam reads past the gradient's rows when it does not.
        ids[5] = VOCAB - 1
        y = rng.uniform(-1, 1, size=(6, 1)).astype('float32')
        out.append((ids, y))
    return out


def build(make_optimizer, seed):
    main, startup = fluid.Program(), fluid.Program()
    startup.random_seed = seed
    with fluid.program_guard(main, startup):
        ids = fluid.layers.data(name='ids', shape=[1], dtype='int64')
        y = fluid.layers.data(name='y', shape=[1], dtype='float32')
        emb = fluid.layers.embedding(
            input=ids, size=[VOCAB, DIM], is_sparse=True,
            param_attr=fluid.ParamAttr(
                name='emb', initializer=fluid.initializer.Uniform(-0.5, 0.5, seed=seed)))
        pred = fluid.layers.fc(
            input=emb, size=1,
            param_attr=fluid.ParamAttr(
                name='w', initializer=fluid.initializer.Uniform(-1.0, 1.0, seed=seed + 1)),
            bias_attr=fluid.ParamAttr(name='b'))
        loss = fluid.layers.mean(fluid.layers.square_error_cost(input=pred, label=y))
        fluid.clip.set_gradient_clip(
            fluid.clip.GradientClipByGlobalNorm(clip_norm=0.05), program=main)
        make_optimizer().minimize(loss)
    return main, startup, loss


exe = fluid.Executor(fluid.CPUPlace())
for name, make in [('adam', lambda: fluid.optimizer.Adam(learning_rate=0.1)),
                   ('lazy_adam', lambda: fluid.optimizer.Adam(learning_rate=0.1, lazy_mode=True)),
                   ('sgd', lambda: fluid.optimizer.SGD(learning_rate=0.5))]:
    main, startup, loss = build(make, 5)
    grad = main.global_block().var('emb@GRAD')
    print(name, grad.type == fluid.core.VarDesc.VarType.SELECTED_ROWS)
    block = main.global_block()
    print([op.type for op in block.ops
           if op.type in ('merge_selected_rows', 'get_tensor_from_selected_rows')])
    for op in block.ops:
        if op.type == 'elementwise_mul' and op.input('X') == ['emb@GRAD']:
            clipped = block.var(op.output('Out')[0])
            print('clipped', clipped.type == fluid.core.VarDesc.VarType.SELECTED_ROWS,
                  clipped.shape)
        if op.type == 'get_tensor_from_selected_rows':
            value = block.var(op.output('Out')[0])
            print('value', value.shape)
    scope = fluid.core.Scope()
    with fluid.scope_guard(scope):
        exe.run(startup)
        for ids, y in batches():
            l, v = exe.run(main, feed={'ids': ids, 'y': y}, fetch_list=[loss, value])
            print(name, 'ids', ids.flatten().tolist(), 'loss', fmt(l))
            # the merged gradient's value: one row per distinct id, in order
            print(name, 'merged', v.shape, fmt(v, 4))
        table = np.array(scope.find_var('emb').get_tensor())
        print(name, 'emb[:6]', fmt(table[:6], 4))
        print(name, 'emb[11]', fmt(table[11], 4))
        # no batch has rows 6 to 10: they keep their initial values
        print(name, 'emb[6:11] sum', fmt(table[6:11].sum(), 4))
