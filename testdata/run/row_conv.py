# layers.row_conv, DeepSpeech2's lookahead convolution, as 2018 speech
# programs used it after their recurrent layers: a named filter of known
# values on frames of sequences shorter and longer than the context (the
# LoD of the output fetched), then a small acoustic model (fc, dynamic
# GRU-free stack: fc -> row_conv with relu -> per-frame fc) trained with
# SGD on a frame-level regression target, printing the loss and the
# filter as it learns.
from __future__ import print_function

import numpy as np
import paddle.fluid as fluid


def fmt(values, digits=4):
    form = '%.' + str(digits) + 'f'
    return ' '.join(form % v for v in np.array(values).flatten())


place = fluid.CPUPlace()
exe = fluid.Executor(place)

frames = fluid.layers.data(name='frames', shape=[3], dtype='float32', lod_level=1)
known = np.array([[1.0, 0.5, -1.0], [0.25, 2.0, 0.5], [-0.5, 1.0, 1.5]], dtype='float32')
look = fluid.layers.row_conv(
    input=frames, future_context_size=2,
    param_attr=fluid.ParamAttr(
        name='lookahead_w',
        initializer=fluid.initializer.NumpyArrayInitializer(known)))
look_tanh = fluid.layers.row_conv(frames, 1, act='tanh')
print(look.shape, look_tanh.shape)
exe.run(fluid.default_startup_program())
fd = fluid.create_lod_tensor(np.arange(18, dtype='float32').reshape(6, 3) / 4.0,
                             [[1, 2, 3]], place)
out, = exe.run(feed={'frames': fd}, fetch_list=[look], return_numpy=False)
print(np.array(out).tolist(), out.lod())
w = np.array(fluid.global_scope().find_var('lookahead_w').get_tensor())
print('filter', w.shape, fmt(w, 2))

train = fluid.Program()
startup = fluid.Program()
startup.random_seed = 17
with fluid.program_guard(train, startup):
    feat = fluid.layers.data(name='feat', shape=[4], dtype='float32', lod_level=1)
    target = fluid.layers.data(name='target', shape=[2], dtype='float32', lod_level=1)
    hidden = fluid.layers.fc(input=feat, size=5, act='tanh')
    ahead = fluid.layers.row_conv(input=hidden, future_context_size=3, act='relu')
    predict = fluid.layers.fc(input=ahead, size=2)
    cost = fluid.layers.square_error_cost(input=predict, label=target)
    loss = fluid.layers.mean(fluid.layers.sequence_pool(cost, pool_type='sum'))
    fluid.optimizer.SGD(learning_rate=0.2).minimize(loss)

exe.run(startup)
rng = np.random.RandomState(3)
feats = fluid.create_lod_tensor(rng.uniform(-1, 1, (9, 4)).astype('float32'),
                                [[4, 2, 3]], place)
targets = fluid.create_lod_tensor(rng.uniform(-1, 1, (9, 2)).astype('float32'),
                                  [[4, 2, 3]], place)
for step in range(5):
    l, a = exe.run(train, feed={'feat': feats, 'target': targets},
                   fetch_list=[loss, ahead], return_numpy=False)
    print('step', step, fmt(np.array(l)), a.lod())
params = train.global_block().all_parameters()
row_filter = [p for p in params if p.name.startswith('row_conv')][0]
print(row_filter.name, row_filter.shape)
print(fmt(np.array(fluid.global_scope().find_var(row_filter.name).get_tensor()), 3))
