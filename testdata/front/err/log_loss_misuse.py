# Mistakes in calls to layers.log_loss; each is reported where it is made.
import paddle.fluid as fluid

scores = fluid.layers.data(name='scores', shape=[3], dtype='float32')
prob = fluid.layers.data(name='prob', shape=[1], dtype='float32')
prob64 = fluid.layers.data(name='prob64', shape=[1], dtype='float64')
label = fluid.layers.data(name='label', shape=[1], dtype='float32')
pair = fluid.layers.data(name='pair', shape=[2], dtype='float32')
a = fluid.layers.log_loss(scores, label)
b = fluid.layers.log_loss(prob, pair)
c = fluid.layers.log_loss(prob64, label)
d = fluid.layers.log_loss(prob, label, eps=0.1)
