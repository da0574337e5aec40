# A click-through-rate model as 2018-19 CTR scripts train one: an
# embedding of sparse ids beside dense features, softmax over two classes,
# and fluid.layers.auc's global and sliding-window AUC fetched each batch.
from __future__ import print_function

import numpy as np
import paddle.fluid as fluid

BATCH = 32
np.random.seed(7)

dense = fluid.layers.data(name='dense', shape=[4], dtype='float32')
ids = fluid.layers.data(name='ids', shape=[1], dtype='int64')
label = fluid.layers.data(name='label', shape=[1], dtype='int64')

emb = fluid.layers.embedding(input=ids, size=[50, 8], is_sparse=True,
                             param_attr=fluid.ParamAttr(
                                 initializer=fluid.initializer.Uniform(-0.1, 0.1, seed=3)))
emb = fluid.layers.reshape(emb, shape=[-1, 8])
feature = fluid.layers.concat([dense, emb], axis=1)
hidden = fluid.layers.fc(input=feature, size=16, act='relu',
                         param_attr=fluid.ParamAttr(
                             initializer=fluid.initializer.Normal(scale=0.3, seed=5)))
predict = fluid.layers.fc(input=hidden, size=2, act='softmax',
                          param_attr=fluid.ParamAttr(
                              initializer=fluid.initializer.Normal(scale=0.3, seed=6)))
cost = fluid.layers.cross_entropy(input=predict, label=label)
avg_cost = fluid.layers.mean(cost)
auc_var, batch_auc_var, auc_states = fluid.layers.auc(input=predict, label=label)
# A coarser one over the last three batches.
_, window_auc, _ = fluid.layers.auc(input=predict, label=label,
                                    num_thresholds=63, slide_steps=3)
fluid.optimizer.SGD(learning_rate=0.1).minimize(avg_cost)

place = fluid.CPUPlace()
exe = fluid.Executor(place)
exe.run(fluid.default_startup_program())
print([v.name for v in auc_states], [v.shape for v in auc_states])


def batch():
    x = np.random.normal(size=(BATCH, 4)).astype('float32')
    i = np.random.randint(0, 50, size=(BATCH, 1)).astype('int64')
    y = ((x[:, 0] + 0.5 * x[:, 1] + (i[:, 0] % 3 == 0)) > 0.6).astype('int64').reshape(-1, 1)
    return {'dense': x, 'ids': i, 'label': y}


for pass_id in range(2):
    for batch_id in range(6):
        loss, auc_val, batch_auc_val, window = exe.run(
            feed=batch(), fetch_list=[avg_cost, auc_var, batch_auc_var, window_auc])
        print("pass %d batch %d loss %.6f auc %.6f batch_auc %.6f window %.6f" % (
            pass_id, batch_id, loss, auc_val, batch_auc_val, window))

# The statistics are persistable: they count every example seen.
scope = fluid.global_scope()
stat_pos = np.array(scope.find_var(auc_states[2].name).get_tensor())
stat_neg = np.array(scope.find_var(auc_states[3].name).get_tensor())
print(stat_pos.sum() + stat_neg.sum(), stat_pos.dtype)
batch_pos = np.array(scope.find_var(auc_states[0].name).get_tensor())
print(batch_pos.shape, batch_pos[-1])

# Evaluating with a cloned test program: the same statistics keep counting.
test_program = fluid.default_main_program().clone(for_test=True)
auc_test, = exe.run(test_program, feed=batch(), fetch_list=[auc_var])
print("test auc %.6f" % auc_test)
