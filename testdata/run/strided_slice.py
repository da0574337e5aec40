# 1.6's strided_slice as 2019 models used it: every other frame of a
# clip, a reversed and strided crop of feature maps, and negative bounds,
# trained through a few SGD steps so the input's gradient (zeros where
# nothing was taken) prints too. A negative stride takes Paddle 1.x's
# elements: counted from the end bound (4:0:-2 of 5 takes 3, 1).
import numpy as np
import paddle.fluid as fluid

x = fluid.layers.data(name='x', shape=[5, 4, 6], dtype='float32')
x.stop_gradient = False
ids = fluid.layers.data(name='ids', shape=[7], dtype='int64')
a = fluid.layers.strided_slice(x, axes=[1, 2, 3], starts=[0, 1, 0], ends=[5, 4, 6], strides=[2, 1, 2])
b = fluid.layers.strided_slice(x, axes=[1, 3], starts=[4, -1], ends=[0, -7], strides=[-2, -1])
c = fluid.layers.strided_slice(x, axes=[2, 3], starts=[-1, 1], ends=[-5, 10], strides=[-1, 3])
d = fluid.layers.strided_slice(x, axes=[1], starts=[-2], ends=[-6], strides=[-3])
e = fluid.layers.strided_slice(ids, axes=[1], starts=[6], ends=[0], strides=[-4])
print(a.shape, b.shape, c.shape, d.shape, e.shape)
w = fluid.layers.create_parameter(shape=[6], dtype='float32',
                                  default_initializer=fluid.initializer.Constant(0.5))
feats = [fluid.layers.reduce_mean(fluid.layers.elementwise_mul(
    fluid.layers.strided_slice(x, axes=[3], starts=[0], ends=[6], strides=[1]), w))]
feats += [fluid.layers.reduce_mean(v) * (i + 1.0) for i, v in enumerate([a, b, c, d])]
loss = fluid.layers.sums(feats)
fluid.optimizer.SGD(learning_rate=0.1).minimize(loss)

exe = fluid.Executor(fluid.CPUPlace())
exe.run(fluid.default_startup_program())
xv = np.arange(2 * 5 * 4 * 6, dtype='float32').reshape(2, 5, 4, 6) / 10.0
iv = np.arange(14, dtype='int64').reshape(2, 7)
for step in range(2):
    out = exe.run(feed={'x': xv, 'ids': iv}, fetch_list=[loss, a, b, c, d, e, 'x@GRAD'])
    print(step, np.round(out[0], 3))
    for v in out[1:]:
        print(v.dtype, v.shape, np.round(v.reshape(-1)[:10], 3).tolist())
    print(np.round(out[-1][0, :, 1, :] * 1000, 3).tolist())
