# Mistakes in calls to layer_norm, l2_normalize, prelu, label_smooth,
# huber_loss, pad and sum; each is reported where it is made.
import paddle.fluid as fluid

x = fluid.layers.data(name='x', shape=[4, 3], dtype='float32')
column = fluid.layers.data(name='column', shape=[1], dtype='float32')
pair = fluid.layers.data(name='pair', shape=[2], dtype='float32')
onehot = fluid.layers.data(name='onehot', shape=[5], dtype='float32')
prior = fluid.layers.data(name='prior', shape=[3], dtype='float32', append_batch_size=False)
a = fluid.layers.layer_norm(x, begin_norm_axis=3)
b = fluid.layers.l2_normalize(x, axis=4)
c = fluid.layers.prelu(x, mode='row')
d = fluid.layers.label_smooth(onehot, epsilon=1.5)
e = fluid.layers.label_smooth(onehot, prior_dist=prior)
f = fluid.layers.huber_loss(column, pair, delta=1.0)
g = fluid.layers.pad(x, paddings=[1, 1])
h = fluid.layers.sum([])
i = fluid.layers.layer_norm(x, param_attr=False)
