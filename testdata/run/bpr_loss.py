# 1.x's layers.bpr_loss: a recommender scoring 5 items per user (a
# session-based model's output layer), trained a few steps on which item
# each user picked; prints the losses and the scores' gradients.
import numpy as np
import paddle.fluid as fluid

fluid.default_startup_program().random_seed = 71
user = fluid.layers.data(name='user', shape=[4], dtype='float32')
item = fluid.layers.data(name='item', shape=[1], dtype='int64')
scores = fluid.layers.fc(input=user, size=5)
cost = fluid.layers.bpr_loss(input=scores, label=item)
print(cost.shape)
avg = fluid.layers.mean(cost)
fluid.optimizer.Adam(learning_rate=0.05).minimize(avg)
scores_grad = fluid.default_main_program().global_block().var(scores.name + '@GRAD')

exe = fluid.Executor(fluid.CPUPlace())
exe.run(fluid.default_startup_program())
feed = {'user': np.linspace(-1, 1, 16).reshape(4, 4).astype('float32'),
        'item': np.array([[0], [4], [2], [2]]).astype('int64')}
for step in range(4):
    a, c, g = exe.run(feed=feed, fetch_list=[avg, cost, scores_grad])
    print(step, np.round(a, 5).tolist(), c.shape)
print(np.round(c, 5).tolist())
print(np.round(g, 5).tolist())
