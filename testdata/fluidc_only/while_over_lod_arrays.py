# The DynamicRNN of test_dyn_rnn.py by hand (fluidc only): lod_rank_table,
# lod_tensor_to_array, shrink_memory and array_to_lod_tensor around a
# While, trained through sequence_last_step; the loss must halve.
import numpy as np
import paddle.fluid as fluid

fluid.default_startup_program().random_seed = 1
fluid.default_main_program().random_seed = 1
words = fluid.layers.data(name='word', shape=[1], dtype='int64', lod_level=1)
label = fluid.layers.data(name='label', shape=[1], dtype='float32')
emb = fluid.layers.embedding(input=words, size=[20, 8], dtype='float32')
rank_table = fluid.layers.lod_rank_table(x=emb)
emb_array = fluid.layers.lod_tensor_to_array(x=emb, table=rank_table)
seq_len = fluid.layers.max_sequence_len(rank_table=rank_table)
i = fluid.layers.fill_constant(shape=[1], dtype='int64', value=0)
i.stop_gradient = False
boot = fluid.layers.fill_constant_batch_size_like(
    input=fluid.layers.array_read(array=emb_array, i=i), value=0, shape=[-1, 16], dtype='float32')
boot.stop_gradient = False
mem_array = fluid.layers.array_write(x=boot, i=i)
cond = fluid.layers.less_than(x=i, y=seq_len)
cond.stop_gradient = False
loop = fluid.layers.While(cond=cond)
out = fluid.layers.create_array(dtype='float32')
with loop.block():
    mem = fluid.layers.array_read(array=mem_array, i=i)
    ipt = fluid.layers.array_read(array=emb_array, i=i)
    mem = fluid.layers.shrink_memory(x=mem, i=i, table=rank_table)
    hidden = fluid.layers.fc(input=[mem, ipt], size=16, act='tanh')
    fluid.layers.array_write(x=hidden, i=i, array=out)
    fluid.layers.increment(x=i, in_place=True)
    fluid.layers.array_write(x=hidden, i=i, array=mem_array)
    fluid.layers.less_than(x=i, y=seq_len, cond=cond)
all_steps = fluid.layers.array_to_lod_tensor(x=out, table=rank_table)
last = fluid.layers.sequence_last_step(input=all_steps)
logits = fluid.layers.fc(input=last, size=1, act=None)
loss = fluid.layers.sigmoid_cross_entropy_with_logits(x=logits, label=label)
loss = fluid.layers.mean(loss)
fluid.optimizer.SGD(learning_rate=0.5).minimize(loss)

exe = fluid.Executor(fluid.CPUPlace())
exe.run(fluid.default_startup_program())
seqs = [[1, 2, 3], [4, 5], [6, 7, 8, 9], [10]]
lab = np.array([[1], [0], [1], [0]], dtype='float32')
feed = {'word': fluid.create_lod_tensor(seqs, [[3, 2, 4, 1]], fluid.CPUPlace()), 'label': lab}
losses = []
for step in range(30):
    l, = exe.run(fluid.default_main_program(), feed=feed, fetch_list=[loss])
    losses.append(float(l[0]) if l.shape else float(l))
print(losses[0], losses[-1])
assert losses[-1] < losses[0] * 0.5, losses
