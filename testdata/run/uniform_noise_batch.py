# GAN-style noise drawn per batch: fluid.layers.uniform_random_batch_size_like
# takes the batch size from the real images at run time (seeded, so Paddle
# draws the same values), and the generator maps it to fake samples.
import numpy as np
import paddle.fluid as fluid

fluid.default_startup_program().random_seed = 9
real = fluid.layers.data(name='real', shape=[4], dtype='float32')
noise = fluid.layers.uniform_random_batch_size_like(input=real, shape=[-1, 3], min=-1.0, max=1.0, seed=17)
wide = fluid.layers.uniform_random_batch_size_like(input=real, shape=[2, -1], input_dim_idx=0,
                                                   output_dim_idx=1, min=0.0, max=2.0, seed=5, dtype='float64')
fake = fluid.layers.fc(input=noise, size=4, act='tanh',
                       param_attr=fluid.ParamAttr(initializer=fluid.initializer.Constant(0.25)))
print(noise.shape, wide.shape)
exe = fluid.Executor(fluid.CPUPlace())
exe.run(fluid.default_startup_program())
for batch in (2, 5):
    n, w, f = exe.run(feed={'real': np.ones((batch, 4), dtype='float32')}, fetch_list=[noise, wide, fake])
    print(batch, n.shape, w.shape, np.round(n, 6).tolist(), np.round(w, 6).tolist(), np.round(f.astype('float64'), 4).tolist())
