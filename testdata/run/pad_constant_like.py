# 1.x's layers.pad_constant_like: a smaller prediction padded at the end
# of each dim with a constant to the shape of a reference tensor (as 2018
# detection code padded per-image outputs to the batch's largest), then
# compared with the reference; only the smaller tensor gets a gradient.
import numpy as np
import paddle.fluid as fluid

fluid.default_startup_program().random_seed = 17
ref = fluid.layers.data(name='ref', shape=[3, 4, 5], dtype='float32', append_batch_size=False)
feat = fluid.layers.data(name='feat', shape=[3, 6], dtype='float32', append_batch_size=False)
pred = fluid.layers.fc(input=feat, size=6, act='tanh')
small = fluid.layers.reshape(pred, shape=[3, 2, 3])
zero_pad = fluid.layers.pad_constant_like(x=ref, y=small)
one_pad = fluid.layers.pad_constant_like(ref, small, pad_value=1.0)
print(zero_pad.shape, one_pad.shape)
loss = fluid.layers.mean(fluid.layers.square(zero_pad - ref)) + fluid.layers.reduce_mean(one_pad)
fluid.optimizer.SGD(learning_rate=0.5).minimize(loss)
small_grad = fluid.default_main_program().global_block().var(small.name + '@GRAD')

exe = fluid.Executor(fluid.CPUPlace())
exe.run(fluid.default_startup_program())
feed = {'ref': np.linspace(-1, 1, 60).reshape(3, 4, 5).astype('float32'),
        'feat': np.linspace(0, 1, 18).reshape(3, 6).astype('float32')}
for step in range(3):
    l, z, o, g = exe.run(feed=feed, fetch_list=[loss, zero_pad, one_pad, small_grad])
    print(step, np.round(l, 5).tolist(), z.shape, o.shape, g.shape)
print(np.round(z[1], 4).tolist())
print(np.round(o[2], 4).tolist())
print(np.round(g, 5).tolist())
