# matmul's declared output shape (issue 38), as later layers need it at
# build time: x [2, 3, 4] against y [4, 5], with transpose_x / transpose_y,
# a batch of y's, 1-D operands, a -1 batch dim and alpha; then an
# fc(num_flatten_dims=2) and a reshape built from that shape, run on
# fixed values.
import numpy as np
import paddle.fluid as fluid
import paddle.fluid.layers as layers


def data(name, shape):
    return layers.data(name=name, shape=shape, dtype='float32', append_batch_size=False)


rng = np.random.RandomState(38)
feeds = {}


def fed(name, shape):
    feeds[name] = rng.uniform(-1, 1, shape).astype('float32')
    return data(name, shape)


x = fed('x', [2, 3, 4])
xt = fed('xt', [2, 4, 3])
y = fed('y', [4, 5])
yt = fed('yt', [5, 4])
yb = fed('yb', [2, 4, 5])
ybt = fed('ybt', [2, 5, 4])
m = fed('m', [3, 4])
v = fed('v', [4])
batch = layers.data(name='batch', shape=[3, 4], dtype='float32')
feeds['batch'] = rng.uniform(-1, 1, [2, 3, 4]).astype('float32')

outs = [
    ('x @ y', layers.matmul(x, y)),
    ('x^T @ y', layers.matmul(xt, y, transpose_x=True)),
    ('x @ y^T', layers.matmul(x, yt, transpose_y=True)),
    ('x^T @ y^T', layers.matmul(xt, yt, transpose_x=True, transpose_y=True)),
    ('x @ batch y', layers.matmul(x, yb)),
    ('x @ batch y^T', layers.matmul(x, ybt, transpose_y=True)),
    ('m @ y', layers.matmul(m, y)),
    ('x @ v', layers.matmul(x, v)),
    ('v @ v', layers.matmul(v, v)),
    ('batch @ y', layers.matmul(batch, y)),
    ('alpha', layers.matmul(x, y, alpha=0.5)),
]
for name, out in outs:
    print(name, out.shape)

xy = outs[0][1]
h = layers.fc(input=xy, size=2, num_flatten_dims=2,
              param_attr=fluid.ParamAttr(initializer=fluid.initializer.NumpyArrayInitializer(
                  (np.arange(10, dtype='float32').reshape(5, 2) - 4.5) / 10.0)),
              bias_attr=fluid.ParamAttr(initializer=fluid.initializer.Constant(0.25)))
print('fc', h.shape)
r = layers.reshape(xy, shape=[-1, xy.shape[-1]])
print('reshape', r.shape)
hb = layers.fc(input=outs[9][1], size=2, num_flatten_dims=2)
print('fc over batch', hb.shape)
s = layers.reduce_sum(outs[5][1], dim=[1, 2])
print('reduce_sum', s.shape)

exe = fluid.Executor(fluid.CPUPlace())
exe.run(fluid.default_startup_program())
results = exe.run(feed=feeds, fetch_list=[o for _, o in outs] + [h, r, s])
for (name, _), got in zip(outs + [('fc', h), ('reshape', r), ('reduce_sum', s)], results):
    print(name, got.shape)
    print(np.round(got, 3))
