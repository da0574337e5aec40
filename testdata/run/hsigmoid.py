# 1.x's layers.hsigmoid: a word2vec-style classifier over 7 classes with
# the default complete binary tree (class codes of 2 and 3 bits), and one
# over a custom tree given by path tables and codes, trained a few steps;
# prints the losses, the weights' and the input's gradients.
import numpy as np
import paddle.fluid as fluid

fluid.default_startup_program().random_seed = 31
words = fluid.layers.data(name='words', shape=[5], dtype='float32')
words.stop_gradient = False
label = fluid.layers.data(name='label', shape=[1], dtype='int64')
hidden = fluid.layers.fc(input=words, size=4, act='tanh')
cost = fluid.layers.hsigmoid(input=hidden, label=label, num_classes=7,
                             param_attr=fluid.ParamAttr(name='hs_w'),
                             bias_attr=fluid.ParamAttr(name='hs_b'))
print(cost.shape)
path_table = fluid.layers.data(name='path_table', shape=[3], dtype='int64')
path_code = fluid.layers.data(name='path_code', shape=[3], dtype='int64')
custom = fluid.layers.hsigmoid(input=hidden, label=label, num_classes=4,
                               param_attr=fluid.ParamAttr(name='tree_w'), bias_attr=False,
                               path_table=path_table, path_code=path_code, is_custom=True)
avg = fluid.layers.mean(cost) + fluid.layers.mean(custom)
fluid.optimizer.SGD(learning_rate=0.2).minimize(avg)
block = fluid.default_main_program().global_block()

exe = fluid.Executor(fluid.CPUPlace())
exe.run(fluid.default_startup_program())
feed = {'words': np.linspace(-1, 1, 30).reshape(6, 5).astype('float32'),
        'label': np.array([[0], [6], [3], [5], [1], [2]]).astype('int64'),
        'path_table': np.array([[0, 1, -1], [0, 2, 3], [0, 2, -1], [0, -1, -1],
                                [0, 1, -1], [0, 2, 3]]).astype('int64'),
        'path_code': np.array([[1, 0, 0], [0, 1, 1], [0, 0, 0], [1, 0, 0],
                               [0, 1, 0], [0, 1, 0]]).astype('int64')}
for step in range(4):
    out = exe.run(feed=feed, fetch_list=[avg, cost, custom, block.var('hs_w@GRAD'),
                                         block.var('hs_b@GRAD'), block.var('tree_w@GRAD'),
                                         block.var('words@GRAD')])
    print(step, np.round(out[0], 5).tolist())
for o in out[1:]:
    print(np.round(o, 5).tolist())
