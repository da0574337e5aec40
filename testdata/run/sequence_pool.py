# Sequence pooling over LoD batches, as 2018 text models pooled words:
# an embedding of a LoD feed, sequence_pool of each kind, and a classifier
# trained through the sum-pooled sequences with a sigmoid loss.
import numpy as np
import paddle.fluid as fluid

fluid.default_startup_program().random_seed = 3
fluid.default_main_program().random_seed = 3

x = fluid.layers.data(name='x', shape=[2], dtype='float32', lod_level=1)
pools = [fluid.layers.sequence_pool(input=x, pool_type=kind)
         for kind in ['sum', 'average', 'sqrt', 'max']]
pools.append(fluid.layers.sequence_first_step(input=x))
pools.append(fluid.layers.sequence_last_step(input=x))

exe = fluid.Executor(fluid.CPUPlace())
exe.run(fluid.default_startup_program())
data = (np.arange(12).reshape(6, 2) * 0.5 - 2).astype('float32')
t = fluid.create_lod_tensor(data, [[2, 3, 1]], fluid.CPUPlace())
print(t.lod())
for r in exe.run(feed={'x': t}, fetch_list=pools):
    print(r)
fetched = exe.run(feed={'x': t}, fetch_list=[x], return_numpy=False)[0]
print(fetched.lod())
print(np.array(fetched).shape)

train = fluid.Program()
start = fluid.Program()
start.random_seed = 3
with fluid.program_guard(train, start):
    words = fluid.layers.data(name='words', shape=[1], dtype='int64', lod_level=1)
    label = fluid.layers.data(name='label', shape=[1], dtype='float32')
    emb = fluid.layers.embedding(input=words, size=[12, 4])
    pooled = fluid.layers.sequence_pool(input=emb, pool_type='sum')
    logit = fluid.layers.fc(input=pooled, size=1)
    loss = fluid.layers.mean(
        fluid.layers.sigmoid_cross_entropy_with_logits(x=logit, label=label))
    fluid.optimizer.SGD(learning_rate=0.2).minimize(loss)

exe.run(start)
seqs = [[1, 2, 3], [4, 5], [6, 7, 8, 9], [10]]
feed = {'words': fluid.create_lod_tensor(seqs, [[3, 2, 4, 1]], fluid.CPUPlace()),
        'label': np.array([[1], [0], [1], [0]], dtype='float32')}
for step in range(8):
    l, = exe.run(train, feed=feed, fetch_list=[loss])
    print(step, '%.5f' % float(np.array(l).reshape(-1)[0]))
