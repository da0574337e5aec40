# Mistakes in calls to layers.cos_sim; each is reported where it is made.
import paddle.fluid as fluid

a = fluid.layers.data(name='a', shape=[3], dtype='float32')
b = fluid.layers.data(name='b', shape=[4], dtype='float32')
rows = fluid.layers.data(name='rows', shape=[2, 3], dtype='float32', append_batch_size=False)
one = fluid.layers.data(name='one', shape=[3], dtype='float32')
s1 = fluid.layers.cos_sim(X=a, Y=a, dim=1)
s2 = fluid.layers.cos_sim(X=a, Y=b)
s3 = fluid.layers.cos_sim(a, fluid.layers.reshape(one, shape=[-1, 1, 3]))
s4 = fluid.layers.cos_sim(X=fluid.layers.fill_constant(shape=[5, 3], dtype='float32', value=1.0), Y=rows)
s5 = fluid.layers.cos_sim(x=a, y=a)
