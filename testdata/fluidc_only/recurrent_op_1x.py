# 1.x's `recurrent` op, the one op a 1.x StaticRNN was saved as (models
# saved by Fluid 1.0-1.5 with StaticRNN hold it; Paddle 3.3.1 dropped it,
# so fluidc runs it after 1.x's recurrent_op.cc and
# numpy_recurrent_op_1x.py prints what that computes). Built here as 1.x's
# StaticRNN._complete_op built it: a step block whose variables take the
# names of the sequence inputs and outputs, `ex_states` read by the step,
# `states` written by it (through rnn_memory_helper), a STEP_SCOPES
# output. A tanh RNN over 4 steps, forward, and reversed with a mask
# input and two outputs.
from __future__ import print_function

import numpy as np
import paddle.fluid as fluid
import paddle.fluid.core as core
from paddle.fluid import layers

T, B, D, H = 4, 3, 5, 2
rng = np.random.RandomState(11)
x_np = rng.uniform(-1, 1, (T, B, D)).astype('float32')
mask_np = (rng.uniform(0, 1, (T, B, 1)) > 0.3).astype('float32')
h0_np = rng.uniform(-0.5, 0.5, (B, H)).astype('float32')
w_np = rng.uniform(-0.7, 0.7, (D, H)).astype('float32')
u_np = rng.uniform(-0.7, 0.7, (H, H)).astype('float32')


def build(reverse):
    main = fluid.Program()
    with fluid.program_guard(main, fluid.Program()):
        block = main.global_block()
        x = layers.data(name='x', shape=[T, B, D], dtype='float32', append_batch_size=False)
        mask = layers.data(name='mask', shape=[T, B, 1], dtype='float32', append_batch_size=False)
        h0 = layers.data(name='h0', shape=[B, H], dtype='float32', append_batch_size=False)
        w = layers.data(name='w', shape=[D, H], dtype='float32', append_batch_size=False)
        u = layers.data(name='u', shape=[H, H], dtype='float32', append_batch_size=False)
        hidden = block.create_var(name='hidden', shape=[T, B, H], dtype='float32')
        cell = block.create_var(name='cell', shape=[T, B, H], dtype='float32')
        scopes = block.create_var(type=core.VarDesc.VarType.STEP_SCOPES)

        step = main._create_block()
        x_t = step.create_var(name='x', shape=[B, D], dtype='float32')
        m_t = step.create_var(name='mask', shape=[B, 1], dtype='float32')
        h_pre = step.create_var(name='h@pre', shape=[B, H], dtype='float32')
        pre = layers.elementwise_add(layers.matmul(x_t, w), layers.matmul(h_pre, u))
        h = layers.tanh(pre)
        kept = layers.elementwise_add(
            layers.elementwise_mul(h, m_t, axis=0),
            layers.elementwise_mul(h_pre, layers.scale(m_t, scale=-1.0, bias=1.0), axis=0))
        for name, src in [('hidden', kept), ('cell', pre)]:
            out = step.create_var(name=name, shape=[B, H], dtype='float32')
            step.append_op(type='rnn_memory_helper', inputs={'X': [src]},
                           outputs={'Out': [out]}, attrs={'dtype': src.dtype})
        state = step.create_var(name='h@state', shape=[B, H], dtype='float32')
        step.append_op(type='rnn_memory_helper', inputs={'X': [kept]},
                       outputs={'Out': [state]}, attrs={'dtype': kept.dtype})
        main._rollback()

        block.append_op(
            type='recurrent',
            inputs={'inputs': [x, mask], 'initial_states': [h0], 'parameters': [w, u]},
            outputs={'outputs': [hidden, cell], 'step_scopes': [scopes]},
            attrs={'ex_states': ['h@pre'], 'states': ['h@state'], 'sub_block': step,
                   'has_states': True, 'is_train': False, 'reverse': reverse})
        last = layers.reduce_sum(hidden, dim=0)
    return main, hidden, cell, last


exe = fluid.Executor(fluid.CPUPlace())
feed = {'x': x_np, 'mask': mask_np, 'h0': h0_np, 'w': w_np, 'u': u_np}
for reverse in [False, True]:
    main, hidden, cell, last = build(reverse)
    print('reverse', reverse, [op.type for op in main.global_block().ops][-2:])
    h, c, s = exe.run(main, feed=feed, fetch_list=[hidden, cell, last])
    print(h.shape, c.shape, s.shape)
    print(np.round(h, 5).tolist())
    print(np.round(c[::3], 5).tolist())
    print(np.round(s, 5).tolist())
