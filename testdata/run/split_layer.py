# layers.split by a number of pieces and by sections (one -1), and
# training through it (the gradient is a concat of the pieces'); losses
# to 5 digits, as Paddle's.
import numpy as np
import paddle.fluid as fluid
x = fluid.layers.data(name='x', shape=[6, 2], dtype='float32')
a, b, c = fluid.layers.split(x, num_or_sections=3, dim=1)
d, e = fluid.layers.split(x, num_or_sections=[1, -1], dim=-1)
exe = fluid.Executor(fluid.CPUPlace())
xv = np.arange(24, dtype='float32').reshape(2, 6, 2)
for o in exe.run(feed={'x': xv}, fetch_list=[a, b, c, d, e]):
    print(o.shape, o.ravel().tolist())
print(a.shape, d.shape, e.shape)
prog, startup = fluid.Program(), fluid.Program()
startup.random_seed = 4
with fluid.program_guard(prog, startup):
    t = fluid.layers.data(name='t', shape=[4], dtype='float32')
    h = fluid.layers.fc(input=t, size=6)
    p1, p2 = fluid.layers.split(h, num_or_sections=[2, 4], dim=1)
    loss = fluid.layers.mean(fluid.layers.square(p1)) + fluid.layers.mean(p2)
    fluid.optimizer.SGD(learning_rate=0.1).minimize(loss)
exe.run(startup)
tv = np.linspace(-1, 1, 8).reshape(2, 4).astype('float32')
for step in range(3):
    print(step, '%.5f' % float(exe.run(prog, feed={'t': tv}, fetch_list=[loss])[0]))
