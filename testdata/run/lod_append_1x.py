# A 2019 (Paddle 1.6) script using fluid.layers.lod_append: a dense batch of
# word vectors is cut into sentences by offsets known when the program is
# built, or fed at run time as an int32 Variable, then pooled per sentence
# and trained; and a LoD batch gets a second level under its first.
import numpy as np
import paddle.fluid as fluid

words = fluid.layers.data(name='words', shape=[3], dtype='float32')
offsets = fluid.layers.data(name='offsets', shape=[1], dtype='int32',
                            append_batch_size=False)
label = fluid.layers.data(name='label', shape=[1], dtype='float32')

fixed = fluid.layers.lod_append(words, [0, 2, 5, 6])
fed = fluid.layers.nn.lod_append(words, offsets)
fixed_sum = fluid.layers.sequence_pool(fixed, 'sum')
fed_max = fluid.layers.sequence_pool(fed, 'max')

hidden = fluid.layers.fc(fed, size=4, act='tanh',
                         param_attr=fluid.ParamAttr(initializer=fluid.initializer.Constant(0.1)),
                         bias_attr=False)
sent = fluid.layers.sequence_pool(hidden, 'average')
pred = fluid.layers.fc(sent, size=1,
                       param_attr=fluid.ParamAttr(initializer=fluid.initializer.Constant(0.3)),
                       bias_attr=False)
loss = fluid.layers.mean(fluid.layers.square_error_cost(pred, label))
fluid.optimizer.SGD(learning_rate=0.2).minimize(loss)

exe = fluid.Executor(fluid.CPUPlace())
exe.run(fluid.default_startup_program())
data = (np.arange(18, dtype='float32').reshape(6, 3) - 8.0) / 10.0
cut = np.array([0, 1, 4, 6], dtype='int32')
labels = np.array([[0.5], [-0.2], [0.1]], dtype='float32')
for step in range(4):
    s, m, l = exe.run(feed={'words': data, 'offsets': cut, 'label': labels},
                      fetch_list=[fixed_sum, fed_max, loss])
    print("step %d loss %.5f" % (step, float(np.array(l).ravel()[0])))
print("sum per fixed sentence:", np.round(s.astype('float64'), 3).tolist())
print("max per fed sentence:", np.round(m.astype('float64'), 3).tolist())

out, = exe.run(feed={'words': data, 'offsets': cut, 'label': labels},
               fetch_list=[fixed], return_numpy=False)
print("fixed lod:", out.lod(), out.recursive_sequence_lengths())

# A second level under a LoD batch's own: each word becomes a sequence.
prog, startup = fluid.Program(), fluid.Program()
with fluid.program_guard(prog, startup):
    para = fluid.layers.data(name='para', shape=[1], dtype='float32', lod_level=1)
    two = fluid.layers.lod_append(para, (0, 1, 2, 3, 4, 5, 6))
    pooled = fluid.layers.sequence_pool(two, 'sum')
t = fluid.create_lod_tensor(np.arange(6, dtype='float32').reshape(6, 1), [[2, 3, 1]],
                            fluid.CPUPlace())
got, p = exe.run(prog, feed={'para': t}, fetch_list=[two, pooled], return_numpy=False)
print("two levels:", got.lod(), got.recursive_sequence_lengths())
print("pooled:", np.array(p).ravel().tolist(), p.lod())

# Offsets from numpy (any iterable, as 1.6 took).
halves = fluid.layers.lod_append(words, np.array([0, 3, 6]))
h, = exe.run(feed={'words': data, 'offsets': cut, 'label': labels}, fetch_list=[halves],
             return_numpy=False)
print("numpy offsets:", h.lod())
try:
    fluid.layers.lod_append(words, 3)
except ValueError as e:
    print("ValueError:", e)
