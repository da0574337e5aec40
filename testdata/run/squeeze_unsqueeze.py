# layers.squeeze/unsqueeze (squeeze2/unsqueeze2 with XShape): values,
# build-time shapes, and training through them (losses to 5 digits: the
# fc's GEMM may differ from Paddle's MKL in the last bit).
import numpy as np
import paddle.fluid as fluid
x = fluid.layers.data(name='x', shape=[1, 3], dtype='float32')
a = fluid.layers.squeeze(x, axes=[1])
b = fluid.layers.unsqueeze(a, axes=[0, 3])
c = fluid.layers.unsqueeze(x, axes=[-1])
d = fluid.layers.squeeze(c, axes=[])
exe = fluid.Executor(fluid.CPUPlace())
xv = np.arange(6, dtype='float32').reshape(2, 1, 3)
for o in exe.run(feed={'x': xv}, fetch_list=[a, b, c, d]):
    print(o.shape, o.ravel().tolist())
print(a.shape, b.shape, c.shape, d.shape)
# Training through squeeze/unsqueeze: the gradient gets its dims back.
prog, startup = fluid.Program(), fluid.Program()
startup.random_seed = 2
with fluid.program_guard(prog, startup):
    t = fluid.layers.data(name='t', shape=[4], dtype='float32')
    h = fluid.layers.unsqueeze(fluid.layers.fc(input=t, size=3), axes=[1])
    loss = fluid.layers.mean(fluid.layers.square(fluid.layers.squeeze(h, axes=[1])))
    fluid.optimizer.SGD(learning_rate=0.1).minimize(loss)
exe.run(startup)
tv = np.linspace(-1, 1, 8).reshape(2, 4).astype('float32')
for step in range(3):
    print(step, '%.5f' % float(exe.run(prog, feed={'t': tv}, fetch_list=[loss])[0]))
