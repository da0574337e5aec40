# Mistakes in calls to layers.auc; each is reported where it is made.
import paddle.fluid as fluid

prob = fluid.layers.data(name='prob', shape=[2], dtype='float32')
prob64 = fluid.layers.data(name='prob64', shape=[2], dtype='float64')
label = fluid.layers.data(name='label', shape=[1], dtype='int64')
label32 = fluid.layers.data(name='label32', shape=[1], dtype='int32')
a = fluid.layers.auc(input=prob, label=label, curve='PR')
b = fluid.layers.auc(input=prob64, label=label)
c = fluid.layers.auc(input=prob, label=label32)
d = fluid.layers.auc(input=prob, label=label, num_thresholds=0)
e = fluid.layers.auc(input=prob, label=label, slide_steps=-1)
f = fluid.layers.auc(prob, label, threshold=10)
