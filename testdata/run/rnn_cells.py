# The sequence and recurrent-cell layers of 2018 text models, on fixed
# inputs: sequence_softmax within each sequence of a LoD batch, one
# gru_unit step in both modes, and attention-style pooling (fc scores,
# softmax within each sentence, weighted sum) trained with SGD.
import numpy as np
import paddle.fluid as fluid

fluid.default_startup_program().random_seed = 7
fluid.default_main_program().random_seed = 7

scores = fluid.layers.data(name='scores', shape=[1], dtype='float32', lod_level=1)
attn = fluid.layers.sequence_softmax(input=scores)

HIDDEN = 4
step = fluid.layers.data(name='step', shape=[3 * HIDDEN], dtype='float32')
prev = fluid.layers.data(name='prev', shape=[HIDDEN], dtype='float32')
hidden, reset, gate = fluid.layers.gru_unit(input=step, hidden=prev, size=3 * HIDDEN)
origin, _, _ = fluid.layers.gru_unit(
    input=step, hidden=prev, size=3 * HIDDEN, bias_attr=False, origin_mode=True,
    param_attr=fluid.ParamAttr(initializer=fluid.initializer.Uniform(-0.5, 0.5, seed=3)))
print(hidden.shape, reset.shape, gate.shape)

exe = fluid.Executor(fluid.CPUPlace())
exe.run(fluid.default_startup_program())
s = fluid.create_lod_tensor(
    np.array([[0.5], [1.5], [-1.0], [2.0], [0.0], [0.25]], dtype='float32'),
    [[2, 3, 1]], fluid.CPUPlace())
rng = np.random.RandomState(5)
feed = {'scores': s,
        'step': (rng.rand(3, 3 * HIDDEN) - 0.5).astype('float32'),
        'prev': (rng.rand(3, HIDDEN) - 0.5).astype('float32')}
a, h, r, g, o = exe.run(feed=feed, fetch_list=[attn, hidden, reset, gate, origin],
                        return_numpy=False)
print(a.lod())
for t in [a, h, r, g, o]:
    print(np.round(np.array(t), 5))

train = fluid.Program()
start = fluid.Program()
start.random_seed = 3
with fluid.program_guard(train, start):
    words = fluid.layers.data(name='words', shape=[1], dtype='int64', lod_level=1)
    label = fluid.layers.data(name='label', shape=[1], dtype='float32')
    emb = fluid.layers.embedding(input=words, size=[12, 4])
    weight = fluid.layers.sequence_softmax(fluid.layers.fc(input=emb, size=1))
    pooled = fluid.layers.sequence_pool(
        input=fluid.layers.elementwise_mul(emb, weight, axis=0), pool_type='sum')
    logit = fluid.layers.fc(input=pooled, size=1)
    loss = fluid.layers.mean(
        fluid.layers.sigmoid_cross_entropy_with_logits(x=logit, label=label))
    fluid.optimizer.SGD(learning_rate=0.5).minimize(loss)

exe.run(start)
seqs = [[1, 2, 3], [4, 5], [6, 7, 8, 9], [10]]
feed = {'words': fluid.create_lod_tensor(seqs, [[3, 2, 4, 1]], fluid.CPUPlace()),
        'label': np.array([[1], [0], [1], [0]], dtype='float32')}
for k in range(8):
    l, = exe.run(train, feed=feed, fetch_list=[loss])
    print(k, '%.5f' % float(np.array(l).reshape(-1)[0]))
