# A 2018-style script that keeps its settings in a namedtuple and samples
# minibatches with np.random.choice before feeding them to exe.run.
from __future__ import print_function

import collections

import numpy as np
import paddle.fluid as fluid

Config = collections.namedtuple('Config', 'batch_size hidden scale')
Sample = collections.namedtuple('Sample', ['rows', 'labels'], defaults=[None])

cfg = Config(batch_size=4, hidden=3, scale=0.5)
print(cfg, cfg.batch_size, cfg[1], len(cfg), cfg == (4, 3, 0.5))
small = cfg._replace(batch_size=2)
print(small, small._asdict(), Config._fields)
batch_size, hidden, scale = small
print(batch_size, hidden, scale, sorted([cfg, small]))

np.random.seed(2018)
data = np.arange(40, dtype='float32').reshape(10, 4)
x = fluid.layers.data(name='x', shape=[4], dtype='float32')
y = fluid.layers.scale(fluid.layers.reduce_sum(x, dim=1), scale=cfg.scale)
exe = fluid.Executor(fluid.CPUPlace())
exe.run(fluid.default_startup_program())

for step in range(3):
    rows = np.random.choice(len(data), cfg.batch_size, replace=False)
    s = Sample(rows)
    out, = exe.run(feed={'x': data[s.rows]}, fetch_list=[y])
    print(step, s.rows, out, s.labels)

print(np.random.choice(5), np.random.choice(5, (2, 2)))
print(np.random.choice([0.5, 1.5, 2.5], 4, p=[0.2, 0.3, 0.5]))
print(np.random.choice(np.arange(100, 110), 3, replace=False, p=None))
rs = np.random.RandomState(1)
print(rs.choice(4, 6, p=[0.1, 0.2, 0.3, 0.4]), rs.choice(6, 3, replace=False, p=[0.1] * 5 + [0.5]))
try:
    np.random.choice(3, 5, replace=False)
except ValueError as e:
    print('ValueError:', e)
