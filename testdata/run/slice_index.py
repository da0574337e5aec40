# layers.slice and indexing a program variable (var[0], var[:, 1],
# var[0, 1:3, -1], var[1:]): a slice op, as Paddle builds it, with the
# same values and build-time shapes; a whole axis of step -1 (var[::-1],
# 1.5's) a reverse op after it.
import numpy as np
import paddle.fluid as fluid
x = fluid.layers.data(name='x', shape=[3, 4], dtype='float32')
a = fluid.layers.slice(x, axes=[1, 2], starts=[0, 1], ends=[2, 100])
b = fluid.layers.slice(x, axes=[2], starts=[-2], ends=[4])
sm = fluid.layers.softmax(fluid.layers.reshape(x, [-1, 12]))
c = sm[0]
d = x[:, 1]
e = x[0, 1:3, -1]
f = x[1:]
g = x[::-1]
h = x[0, ::-1, 1:3]
k = x[:, 1:][:, :, ::-1]
exe = fluid.Executor(fluid.CPUPlace())
xv = np.arange(24, dtype='float32').reshape(2, 3, 4) / 10
for o in exe.run(feed={'x': xv}, fetch_list=[a, b, c, d, e, f, g, h, k]):
    print(o.shape, np.round(o, 4).tolist())
print(a.shape, b.shape, c.shape, d.shape, e.shape, f.shape, g.shape, h.shape, k.shape)

# Training through a slice and an index: slice_grad puts the gradient
# back into the box, zeros elsewhere; the losses are Paddle's.
train = fluid.Program()
startup = fluid.Program()
startup.random_seed = 1
with fluid.program_guard(train, startup):
    tx = fluid.layers.data(name='tx', shape=[4], dtype='float32')
    h = fluid.layers.fc(input=tx, size=6)
    part = fluid.layers.slice(h, axes=[1], starts=[1], ends=[4])
    loss = fluid.layers.mean(fluid.layers.square(part[:, 0:2]))
    fluid.optimizer.SGD(learning_rate=0.1).minimize(loss)
exe.run(startup)
tv = np.linspace(-1, 1, 12).reshape(3, 4).astype('float32')
for step in range(3):
    l, = exe.run(train, feed={'tx': tv}, fetch_list=[loss])
    print(step, repr(float(l)))
