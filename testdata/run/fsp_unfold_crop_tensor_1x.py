# A 2019 (Paddle 1.6) distillation-style script: a student conv net learns
# the teacher's FSP matrices (fluid.layers.fsp_matrix between two feature
# maps, as PaddleSlim's FSP loss did), patches are taken with
# fluid.layers.unfold, and a centre window is cut with
# fluid.layers.crop_tensor (fixed offsets, -1 dims, run-time offsets).
import numpy as np
import paddle.fluid as fluid

rng = np.random.RandomState(9)


def conv(x, filters, seed_shape, name):
    w = rng.uniform(-0.3, 0.3, seed_shape).astype('float32')
    attr = fluid.ParamAttr(name=name, initializer=fluid.initializer.NumpyArrayInitializer(w))
    return fluid.layers.conv2d(x, num_filters=filters, filter_size=3, padding=1, act='relu',
                               param_attr=attr, bias_attr=False)


img = fluid.layers.data(name='img', shape=[2, 6, 6], dtype='float32')
teacher_fsp = fluid.layers.data(name='teacher_fsp', shape=[3, 4], dtype='float32')
s1 = conv(img, 3, (3, 2, 3, 3), 's1')
s2 = conv(s1, 4, (4, 3, 3, 3), 's2')
fsp = fluid.layers.fsp_matrix(s1, s2)
fsp_loss = fluid.layers.reduce_mean(fluid.layers.square(fsp - teacher_fsp))
fluid.optimizer.SGD(learning_rate=0.5).minimize(fsp_loss)
print("fsp shape:", fsp.shape)

patches = fluid.layers.unfold(img, kernel_sizes=[2, 3], strides=2, paddings=1)
dilated = fluid.layers.nn.unfold(img, 2, strides=[1, 2], paddings=[0, 1, 1, 0], dilations=2)
centre = fluid.layers.crop_tensor(img, shape=[-1, 2, 3, 3], offsets=[0, 0, 2, 1])
rest = fluid.layers.crop_tensor(img, shape=[-1, 1, -1, 2], offsets=[0, 1, 4, 3])
where = fluid.layers.data(name='where', shape=[4], dtype='int32', append_batch_size=False)
moved = fluid.layers.crop_tensor(img, shape=[2, 2, 2, 2], offsets=where)
print("unfold shapes:", patches.shape, dilated.shape, "crop shapes:", centre.shape, rest.shape,
      moved.shape)

exe = fluid.Executor(fluid.CPUPlace())
exe.run(fluid.default_startup_program())
images = rng.uniform(-1, 1, (3, 2, 6, 6)).astype('float32')
target = rng.uniform(0, 0.2, (3, 3, 4)).astype('float32')
feed = {'img': images, 'teacher_fsp': target, 'where': np.array([1, 0, 3, 2], 'int32')}
for step in range(4):
    l, f = exe.run(feed=feed, fetch_list=[fsp_loss, fsp])
    print("step %d fsp loss %.6f fsp[0][0] %s" % (
        step, float(np.array(l).ravel()[0]), np.round(f[0][0].astype('float64'), 5).tolist()))

p, d, c, r, m = exe.run(feed=feed, fetch_list=[patches, dilated, centre, rest, moved])
print("patches", p.shape, np.round(p[0, :3, :4].astype('float64'), 4).tolist())
print("patches sum", round(float(p.astype('float64').sum()), 4))
print("dilated", d.shape, np.round(d[1, 5, :5].astype('float64'), 4).tolist())
print("centre", c.shape, np.array_equal(c, images[:, :, 2:5, 1:4]))
print("rest", r.shape, np.array_equal(r, images[:, 1:2, 4:6, 3:5]))
print("moved", m.shape, np.array_equal(m, images[1:3, 0:2, 3:5, 2:4]))

# unfold's gradient: each pixel's gradient counts the blocks it is in.
prog, startup = fluid.Program(), fluid.Program()
with fluid.program_guard(prog, startup):
    x = fluid.layers.data(name='x', shape=[1, 4, 4], dtype='float32')
    x.stop_gradient = False
    cols = fluid.layers.unfold(x, kernel_sizes=2, strides=1)
    g, = fluid.backward.gradients([fluid.layers.reduce_sum(cols)], [x])
grad, = exe.run(prog, feed={'x': np.ones((1, 1, 4, 4), 'float32')}, fetch_list=[g])
print("unfold grad", grad[0, 0].astype('int64').tolist())
try:
    fluid.layers.crop_tensor(img, shape=[-1, 2, 0, 3])
except ValueError as e:
    print("ValueError:", e)
