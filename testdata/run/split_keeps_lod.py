# A gated unit on a batch of sequences: split (through nets.glu) along the
# feature dim keeps each half's LoD, so sequence_pool can follow, as in 1.x.
import numpy as np
import paddle.fluid as fluid

fluid.default_startup_program().random_seed = 7
words = fluid.layers.data(name='words', shape=[6], dtype='float32', lod_level=1)
label = fluid.layers.data(name='label', shape=[1], dtype='float32')
proj = fluid.layers.fc(input=words, size=8, act=None)
gated = fluid.nets.glu(proj, dim=1)
left, right = fluid.layers.split(proj, num_or_sections=[3, 5], dim=1)
pooled = fluid.layers.sequence_pool(input=gated, pool_type='sum')
last = fluid.layers.sequence_last_step(input=right)
feat = fluid.layers.concat([pooled, last], axis=1)
pred = fluid.layers.fc(input=feat, size=1)
loss = fluid.layers.mean(fluid.layers.square_error_cost(input=pred, label=label))
fluid.optimizer.SGD(learning_rate=0.05).minimize(loss)

exe = fluid.Executor(fluid.CPUPlace())
exe.run(fluid.default_startup_program())
rng = np.random.RandomState(3)
lengths = [[3, 1, 2]]
seq = fluid.create_lod_tensor(rng.uniform(-1, 1, (6, 6)).astype('float32'), lengths, fluid.CPUPlace())
y = rng.uniform(0, 1, (3, 1)).astype('float32')
for step in range(4):
    l, g, r = exe.run(feed={'words': seq, 'label': y}, fetch_list=[loss, gated, right],
                      return_numpy=False)
    print(step, round(float(np.mean(np.array(l))), 5), g.lod(), r.lod(), np.array(g).shape, np.array(r).shape)
