# Mistakes in calls to layers.one_hot and layers.sequence_expand; each is
# reported where it is made.
import paddle.fluid as fluid

label = fluid.layers.data(name='label', shape=[1], dtype='int64')
score = fluid.layers.data(name='score', shape=[1], dtype='float32')
pair = fluid.layers.data(name='pair', shape=[2], dtype='int64')
seq = fluid.layers.data(name='seq', shape=[4], dtype='float32', lod_level=1)
depth = fluid.layers.fill_constant(shape=[1], dtype='int64', value=4)
a = fluid.layers.one_hot(input=label, depth=4, dtype='float32')
b = fluid.layers.one_hot(input=score, depth=4)
c = fluid.layers.one_hot(input=pair, depth=4)
d = fluid.layers.one_hot(label, depth)
e = fluid.layers.one_hot(label, 0)
classes = fluid.layers.one_hot(label, depth=2**32 + 4)
f = fluid.layers.sequence_expand(x=seq, y=seq, level=0)
g = fluid.layers.sequence_expand(x=seq, y=seq, ref_level=-2)
h = fluid.layers.sequence_expand(fluid.layers.fill_constant(shape=[4], dtype='float32', value=1.0), seq)
