# The cross_entropy2 op that 1.4-1.6's layers.cross_entropy wrote for hard
# labels (so programs those versions saved hold it), appended as their op
# tests did: the loss, the matched probabilities, and X's gradient through
# append_backward, with an ignored label.
import numpy as np
import paddle.fluid as fluid

prog = fluid.Program()
with fluid.program_guard(prog, fluid.Program()):
    block = prog.global_block()
    x = fluid.layers.data(name='x', shape=[5], dtype='float32', stop_gradient=False)
    label = fluid.layers.data(name='label', shape=[1], dtype='int64')
    y = block.create_var(name='y', dtype='float32')
    match_x = block.create_var(name='match_x', dtype='float32')
    xshape = block.create_var(name='xshape', dtype='float32')
    block.append_op(type='cross_entropy2', inputs={'X': x, 'Label': label},
                    outputs={'Y': y, 'MatchX': match_x, 'XShape': xshape},
                    attrs={'ignore_index': 3})
    print(y.shape, match_x.shape, xshape.shape)
    loss = fluid.layers.mean(y)
    fluid.backward.append_backward(loss)

rng = np.random.RandomState(9)
probs = rng.uniform(0.1, 1.0, (4, 5)).astype('float32')
probs /= probs.sum(axis=1, keepdims=True)
labels = np.array([[0], [3], [4], [1]], dtype='int64')
exe = fluid.Executor(fluid.CPUPlace())
outs = exe.run(prog, feed={'x': probs, 'label': labels},
               fetch_list=['y', 'match_x', 'x@GRAD'])
for o in outs:
    print(o.shape, np.round(o, 5).tolist())
