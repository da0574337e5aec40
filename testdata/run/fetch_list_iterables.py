# exe.run's fetch_list as Paddle 1.0-1.5 took it: any sized iterable of
# Variables and names, fetched in its iteration order (the 2018 fc_gan demo
# fetched `fetch_list={g_img}`, a set). A set of several prints sorted
# values: its order is the hash's. A generator has no len(), which 1.x
# needed, so it is refused.
import numpy as np
import paddle.fluid as fluid

x = fluid.layers.data(name='x', shape=[3], dtype='float32')
doubled = fluid.layers.scale(x, scale=2.0)
total = fluid.layers.reduce_sum(doubled)
exe = fluid.Executor(fluid.CPUPlace())
exe.run(fluid.default_startup_program())
feed = {'x': np.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], dtype='float32')}

g, = exe.run(feed=feed, fetch_list={doubled})
print(g.tolist())
t, d = exe.run(feed=feed, fetch_list=(total, doubled.name))
print(t.tolist(), d.shape)
both = exe.run(feed=feed, fetch_list={total.name, 'x'})
print(sorted(float(v.sum()) for v in both))
by_key = exe.run(feed=feed, fetch_list={doubled: 'images'})
print(by_key[0].shape)
print(exe.run(feed=feed, fetch_list=frozenset()))
try:
    exe.run(feed=feed, fetch_list=(v for v in [doubled]))
except TypeError:
    print('TypeError for a generator')
try:
    exe.run(feed=feed, fetch_list=[doubled, 3])
except TypeError:
    print('TypeError for an int in fetch_list')
