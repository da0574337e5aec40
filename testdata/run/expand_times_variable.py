# 1.6's expand with counts known only when the program runs, as
# BeamSearchDecoder tiles its start tokens by the batch size and seq2seq
# models tile a context vector by a sequence length: expand_times given
# as a list mixing ints and [1] int32 Variables, and as one int32
# Variable, forward and through the gradient of a small SGD step.
from __future__ import print_function

import numpy as np
import paddle.fluid as fluid

main = fluid.Program()
startup = fluid.Program()
with fluid.program_guard(main, startup):
    ids = fluid.layers.data(name='ids', shape=[3], dtype='float32')
    ctx = fluid.layers.data(name='ctx', shape=[1, 2], dtype='float32', append_batch_size=False)
    batch = fluid.layers.cast(fluid.layers.slice(fluid.layers.shape(ids), axes=[0], starts=[0],
                                                 ends=[1]), 'int32')
    start = fluid.layers.fill_constant(shape=[1, 1], dtype='float32', value=7.0)
    tokens = fluid.layers.expand(start, expand_times=[batch, 2])
    times = fluid.layers.assign(np.array([2, 3], dtype='int32'))
    ctx.stop_gradient = False
    tiled = fluid.layers.expand(ctx, expand_times=times)
    hidden = fluid.layers.fc(input=fluid.layers.reshape(tiled, [-1, 6]), size=1, param_attr='w', bias_attr=False)
    loss = fluid.layers.mean(hidden)
    fluid.optimizer.SGD(learning_rate=0.5).minimize(loss)
    print(tokens.shape, tiled.shape)

exe = fluid.Executor(fluid.CPUPlace())
exe.run(startup)
scope = fluid.global_scope()
scope.find_var('w').get_tensor().set(
    np.array([[0.5], [-1.0], [0.25], [1.5], [-0.5], [2.0]], dtype='float32'), fluid.CPUPlace())
feed = {'ids': np.zeros((4, 3), dtype='float32'),
        'ctx': np.array([[1.0, -2.0]], dtype='float32')}
for step in range(3):
    t, tl, l, g = exe.run(main, feed=feed, fetch_list=[tokens, tiled, loss, 'ctx@GRAD'])
    print(step, t.shape, t.ravel().tolist(), tl.shape, tl.ravel().tolist())
    print('loss %.5f ctx@GRAD %s' % (float(l[0]), np.round(g, 5).ravel().tolist()))
