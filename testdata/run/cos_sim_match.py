# Cosine similarity as 2018 matching models used it (the book's
# recommender_system scored a user against a movie with layers.cos_sim
# and scale): the layer on fed rows, a one-row Y compared with every row
# of X, a zero row (1.x clamps the squared norms: 0, not NaN), and a
# user tower and an item tower trained with SGD through cos_sim, scale and
# square_error_cost, plus a learned one-row anchor. Paddle 3.3.1 dropped
# the cos_sim op: under Paddle the fluid2018 shim writes it out of ops
# 3.3.1 has, fluidc runs 1.x's op, so numbers print rounded.
from __future__ import print_function

import numpy as np
import paddle
import paddle.fluid as fluid


def fmt(values, digits=5):
    form = '%.' + str(digits) + 'f'
    return ' '.join(form % v for v in np.array(values).flatten())


place = fluid.CPUPlace()
exe = fluid.Executor(place)

a = fluid.layers.data(name='a', shape=[3], dtype='float32')
b = fluid.layers.data(name='b', shape=[3], dtype='float32')
one = fluid.layers.data(name='one', shape=[1, 3], dtype='float32',
                        append_batch_size=False)
same_row = fluid.layers.cos_sim(X=a, Y=b)
each_row = fluid.layers.cos_sim(a, one)
print(same_row.shape, each_row.shape)

xa = np.array([[1, 2, 2], [0, 0, 0], [3, 0, 4], [-1, 1, 0.5]], dtype='float32')
xb = np.array([[2, 4, 4], [1, 1, 1], [0, 1, 0], [1, -1, -0.5]], dtype='float32')
r1, r2 = exe.run(feed={'a': xa, 'b': xb, 'one': np.array([[1, 0, 0]], dtype='float32')},
                 fetch_list=[same_row, each_row])
print(r1.shape, fmt(r1))
print(r2.shape, fmt(r2))

USERS, ITEMS = 10, 12


def reader():
    for i in range(40):
        user, item = i % USERS, (i * 5) % ITEMS
        yield [user], [item], [float((user + item) % 3) * 2 - 2]


train = fluid.Program()
startup = fluid.Program()
startup.random_seed = 11
with fluid.program_guard(train, startup):
    user = fluid.layers.data(name='user', shape=[1], dtype='int64')
    item = fluid.layers.data(name='item', shape=[1], dtype='int64')
    score = fluid.layers.data(name='score', shape=[1], dtype='float32')
    u = fluid.layers.embedding(input=user, size=[USERS, 8], is_sparse=True,
                               param_attr='user_emb')
    v = fluid.layers.embedding(input=item, size=[ITEMS, 8], is_sparse=True,
                               param_attr='item_emb')
    uf = fluid.layers.fc(input=u, size=6, act='tanh')
    vf = fluid.layers.fc(input=v, size=6, act='tanh')
    pred = fluid.layers.scale(x=fluid.layers.cos_sim(X=uf, Y=vf), scale=2.0)
    cost = fluid.layers.mean(fluid.layers.square_error_cost(input=pred, label=score))
    anchor = fluid.layers.create_parameter(
        shape=[1, 6], dtype='float32', name='anchor',
        default_initializer=fluid.initializer.Constant(0.5))
    near = fluid.layers.mean(fluid.layers.cos_sim(X=uf, Y=anchor))
    test_program = train.clone(for_test=True)
    loss = fluid.layers.elementwise_sub(cost, fluid.layers.scale(near, scale=0.1))
    fluid.optimizer.SGD(learning_rate=0.5).minimize(loss)

exe.run(startup)
feeder = fluid.DataFeeder(feed_list=[user, item, score], place=place)
batches = list(paddle.batch(reader, batch_size=8)())
for step in range(12):
    l, = exe.run(train, feed=feeder.feed(batches[step % len(batches)]), fetch_list=[loss])
    if step % 3 == 0:
        print('step', step, fmt(l, 4))
p, = exe.run(test_program, feed=feeder.feed(batches[0]), fetch_list=[pred])
print('predicted', p.shape, fmt(p, 3))
print('anchor', fmt(fluid.global_scope().find_var('anchor').get_tensor(), 4))
