# 1.x's IfElse and the ops under it, split_lod_tensor and merge_lod_tensor,
# as 2018's test_if_else_op.py and test_split_and_merge_lod_tensor_op.py
# used them: a batch split by a bool column (rows, or the sequences of a
# LoD level), each side through its own layers, merged back in the rows'
# order; trained with Momentum, and the gradient through a split and a
# merge.
import numpy as np
import paddle.fluid as fluid
import paddle.fluid.core as core
import paddle.fluid.layers as layers
from paddle.fluid.layers.control_flow import split_lod_tensor, merge_lod_tensor

place = fluid.CPUPlace()
exe = fluid.Executor(place)


def lod_tensor(values, lengths=None):
    t = core.LoDTensor()
    t.set(values, place)
    if lengths:
        t.set_recursive_sequence_lengths(lengths)
    return t


def split_and_merge(x_value, mask_value, level=0, lengths=None):
    program = fluid.Program()
    with fluid.program_guard(program):
        x = layers.data(name='x', shape=[1], lod_level=len(lengths or []))
        y = layers.data(name='y', shape=[1], dtype='bool')
        out_true, out_false = split_lod_tensor(input=x, mask=y, level=level)
        out = merge_lod_tensor(in_true=out_true, in_false=out_false, mask=y, x=x, level=level)
        for v in (out_true, out_false, out):
            v.persistable = True
    scope = core.Scope()
    exe.run(program, feed={'x': lod_tensor(x_value, lengths),
                           'y': lod_tensor(mask_value)}, scope=scope, return_numpy=False)
    for v in (out_true, out_false, out):
        t = scope.find_var(v.name).get_tensor()
        print(v.name, np.array(t).ravel().tolist(), t.recursive_sequence_lengths())


rows = np.arange(10).reshape(10, 1).astype('float32')
split_and_merge(rows, np.array([0, 0, 1, 1, 1, 1, 0, 0, 0, 0]).astype('bool').reshape(10, 1))
split_and_merge(rows, np.array([[0], [1], [0]]).astype('bool'), lengths=[[3, 6, 1]])
split_and_merge(rows, np.array([[0], [1]]).astype('bool'), lengths=[[2, 2], [3, 1, 4, 2]])
split_and_merge(rows, np.array([[1], [0], [1], [1]]).astype('bool'), level=1,
                lengths=[[2, 2], [3, 1, 4, 2]])

# The gradient through a split and a merge is the mean's.
program = fluid.Program()
with fluid.program_guard(program):
    x = layers.data(name='x', shape=[1], dtype='float32', stop_gradient=False)
    y = layers.data(name='y', shape=[1], dtype='bool')
    out_true, out_false = split_lod_tensor(input=x, mask=y, level=0)
    out = merge_lod_tensor(in_true=out_true, in_false=out_false, mask=y, x=x, level=0)
    mean = layers.mean(layers.scale(out, scale=3.0))
    fluid.backward.append_backward(mean)
g, = exe.run(program, feed={'x': lod_tensor(rows, [[3, 6, 1]]),
                            'y': lod_tensor(np.array([[0], [1], [0]]).astype('bool'))},
             fetch_list=[x.name + '@GRAD'], scope=core.Scope(), return_numpy=False)
print(np.array(g).ravel().tolist(), np.array(g).sum())

# IfElse as the MNIST test built it: the rows of small labels through one
# network, the others through another, merged, a cross entropy trained
# with Momentum. (The test's limit, fill_constant_batch_size_like of shape
# [1], is [N], which 1.x's less_than could not compare with [N, 1] labels;
# it was disabled. [-1, 1] gives the [N, 1] column IfElse takes.)
main, startup = fluid.Program(), fluid.Program()
with fluid.program_guard(main, startup):
    image = layers.data(name='x', shape=[6], dtype='float32')
    label = layers.data(name='y', shape=[1], dtype='int64')
    limit = layers.fill_constant_batch_size_like(input=label, dtype='int64', shape=[-1, 1],
                                                 value=2.0)
    cond = layers.less_than(x=label, y=limit)
    ie = layers.IfElse(cond)
    with ie.true_block():
        true_image = ie.input(image)
        hidden = layers.fc(input=true_image, size=5, act='tanh',
                           param_attr=fluid.initializer.Constant(0.1))
        prob = layers.fc(input=hidden, size=4, act='softmax',
                         param_attr=fluid.initializer.Constant(0.2))
        ie.output(prob)
    with ie.false_block():
        false_image = ie.input(image)
        hidden = layers.fc(input=false_image, size=7, act='tanh',
                           param_attr=fluid.initializer.Constant(-0.1))
        prob = layers.fc(input=hidden, size=4, act='softmax',
                         param_attr=fluid.initializer.Constant(0.3))
        ie.output(prob)
    prob = ie()
    loss = layers.cross_entropy(input=prob[0], label=label)
    avg_loss = layers.mean(loss)
    fluid.optimizer.MomentumOptimizer(learning_rate=0.1, momentum=0.9).minimize(avg_loss, startup)
print(len(prob), prob[0].name, prob[0].shape)
print(len(main.blocks), sorted(p.name for p in main.global_block().all_parameters()))

rng = np.random.RandomState(7)
images = rng.uniform(-1, 1, (8, 6)).astype('float32') * np.arange(1, 7, dtype='float32')
labels = np.array([[0], [3], [1], [2], [0], [3], [3], [1]]).astype('int64')
exe.run(startup)
for step in range(4):
    l, p = exe.run(main, feed={'x': images, 'y': labels}, fetch_list=[avg_loss, prob[0]])
    print(step, np.round(l, 5), np.round(p[:3], 4).tolist())
scope = fluid.global_scope()
print(np.round(np.array(scope.find_var('fc_0.w_0').get_tensor())[:2], 5).tolist())
print(np.round(np.array(scope.find_var('fc_3.b_0').get_tensor()), 5).tolist())

# A batch whose rows all take one side.
l, = exe.run(main, feed={'x': images[:3], 'y': np.array([[0], [1], [0]]).astype('int64')},
             fetch_list=[avg_loss])
print(np.round(l, 5))

# 2018's test_if_else_op: exp on one side, tanh on the other, summed by
# reduce_sum of the one-output list ie() returns.
data = np.random.RandomState(3).rand(25, 1).astype('float32')
for limit in [0.5, -1.0, 2.0]:
    prog, startup = fluid.Program(), fluid.Program()
    with fluid.program_guard(prog, startup):
        src = layers.data(name='data', shape=[1], dtype='float32')
        cond = layers.fill_constant([1], dtype='float32', value=limit)
        ifcond = layers.less_than(x=src, y=cond)
        ie = layers.IfElse(ifcond)
        with ie.true_block():
            ie.output(fluid.layers.exp(ie.input(src)))
        with ie.false_block():
            ie.output(fluid.layers.tanh(ie.input(src)))
        out = layers.reduce_sum(ie())
    o, = exe.run(prog, feed={'data': data}, fetch_list=[out])
    print(limit, np.round(o, 4))
