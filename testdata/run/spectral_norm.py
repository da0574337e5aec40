# 1.x's spectral_norm as SN-GAN discriminators used it: the weight of a
# dense layer (dim=1, two power iterations) and a conv filter (dim=0)
# divided by their largest singular value, u and v drawn once and left
# untrained, a few SGD steps through the normalized weights.
import numpy as np
import paddle.fluid as fluid

fluid.default_startup_program().random_seed = 7
x = fluid.layers.data(name='x', shape=[6], dtype='float32')
w = fluid.layers.create_parameter(shape=[6, 4], dtype='float32', name='dense_w',
                                  default_initializer=fluid.initializer.Uniform(-1.0, 1.0, seed=3))
f = fluid.layers.create_parameter(shape=[4, 2, 3, 3], dtype='float32', name='conv_f',
                                  default_initializer=fluid.initializer.Uniform(-1.0, 1.0, seed=4))
w_sn = fluid.layers.spectral_norm(w, dim=1, power_iters=2)
f_sn = fluid.layers.spectral_norm(f, dim=0, power_iters=1)
f_sn1 = fluid.layers.spectral_norm(f, dim=1, power_iters=3, eps=1e-6)
h = fluid.layers.matmul(x, w_sn)
loss = fluid.layers.mean(fluid.layers.square(h)) + fluid.layers.reduce_mean(
    fluid.layers.elementwise_mul(f_sn, f_sn1))
fluid.optimizer.SGD(learning_rate=0.5).minimize(loss)
params = sorted(p.name for p in fluid.default_main_program().global_block().all_parameters())
print(params, w_sn.shape, f_sn.shape)

exe = fluid.Executor(fluid.CPUPlace())
exe.run(fluid.default_startup_program())
xv = (np.arange(18, dtype='float32').reshape(3, 6) % 5) / 4.0 - 0.5
for step in range(3):
    l, ws, fs, fs1, gw, gf = exe.run(feed={'x': xv},
                                     fetch_list=[loss, w_sn, f_sn, f_sn1, 'dense_w@GRAD', 'conv_f@GRAD'])
    print(step, np.round(l, 5), np.round(np.sqrt((ws ** 2).sum()), 4))
    print(np.round(ws[0], 4).tolist(), np.round(fs[1, 0, 0], 4).tolist(), np.round(fs1[2, 1, 2], 4).tolist())
    print(np.round(gw[:, 1], 4).tolist(), np.round(gf[0, 1, 1] * 1000, 4).tolist())
