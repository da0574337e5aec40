# conv2d_transpose as 2018-19 GAN generators used it (1.x's layer): a
# noise vector through fc and reshape, then transposed convolutions that
# double the image (stride 2, padding 1, output_size given), one with
# groups and dilation, one whose filter size comes from output_size, and a
# depthwise one (groups == channels == filters, use_cudnn=False). Every
# filter is fixed, so the forward images, three SGD steps and the
# gradients of the filters and of the input print what Paddle computes.
import numpy as np
import paddle.fluid as fluid
import paddle.fluid.layers as layers


def fixed(name, shape, scale=0.1):
    n = int(np.prod(shape))
    values = ((np.arange(n) * 7 % 13) - 6.0).reshape(shape).astype('float32') * scale
    return fluid.ParamAttr(name=name, initializer=fluid.initializer.NumpyArrayInitializer(values))


noise = layers.data(name='noise', shape=[6], dtype='float32')
target = layers.data(name='target', shape=[2, 16, 16], dtype='float32')
h = layers.fc(input=noise, size=4 * 4 * 4, act='relu', param_attr=fixed('fc_w', [6, 64], 0.05),
              bias_attr=fixed('fc_b', [64], 0.01))
h = layers.reshape(h, shape=[-1, 4, 4, 4])
h = layers.conv2d_transpose(input=h, num_filters=6, filter_size=4, stride=2, padding=1,
                            output_size=8, act='relu', param_attr=fixed('deconv1_w', [4, 6, 4, 4]),
                            bias_attr=fixed('deconv1_b', [6], 0.02))
h2 = layers.conv2d_transpose(input=h, num_filters=4, filter_size=3, padding=2, dilation=2,
                             groups=2, param_attr=fixed('deconv2_w', [6, 2, 3, 3]),
                             bias_attr=False)
h3 = layers.conv2d_transpose(input=h2, num_filters=4, groups=4, filter_size=3, padding=1,
                             use_cudnn=False, param_attr=fixed('dw_w', [4, 1, 3, 3]))
img = layers.conv2d_transpose(input=h3, num_filters=2, output_size=[16, 16], stride=2,
                              padding=[1, 0], act='tanh', param_attr=fixed('deconv3_w', [4, 2, 4, 2]))
loss = layers.mean(layers.square(layers.elementwise_sub(img, target)))
fluid.optimizer.SGD(learning_rate=0.5).minimize(loss)

main = fluid.default_main_program()
print([op.type for op in main.global_block().ops if 'conv' in op.type])
print(h.shape, h2.shape, h3.shape, img.shape)
params = sorted(p.name for p in main.global_block().all_parameters())
print(params)
print([main.global_block().var(n).shape for n in params])

rng = np.random.RandomState(3)
feed = {'noise': rng.uniform(-1, 1, (3, 6)).astype('float32'),
        'target': rng.uniform(-0.5, 0.5, (3, 2, 16, 16)).astype('float32')}
exe = fluid.Executor(fluid.CPUPlace())
exe.run(fluid.default_startup_program())
out, = exe.run(feed=feed, fetch_list=[img])
print(out.shape, np.round(out[0, 1, 5:8, 5:9], 4))
for step in range(3):
    l, g3, g1, gh = exe.run(feed=feed, fetch_list=[loss, 'deconv3_w@GRAD', 'deconv1_w@GRAD',
                                                   h2.name + '@GRAD'])
    print(step, np.round(l, 6), np.round(g3.reshape(-1)[:5], 5), np.round(g1.reshape(-1)[-4:], 5))
    print(gh.shape, np.round(gh[2, 3, 2:5, 2:5] * 1000, 4))
scope = fluid.global_scope()
for name in ['deconv2_w', 'dw_w', 'deconv1_b']:
    print(name, np.round(np.array(scope.find_var(name).get_tensor()).reshape(-1)[:6], 4))

# The repro of every GAN generator: [N, 2, 4, 4] to [N, 3, 9, 9] through a
# default (Xavier) filter, and 1.x's error without filter_size or output_size.
repro, repro_startup = fluid.Program(), fluid.Program()
with fluid.program_guard(repro, repro_startup):
    x = layers.data(name='x', shape=[2, 4, 4], dtype='float32')
    y = layers.conv2d_transpose(input=x, num_filters=3, filter_size=3, stride=2)
    try:
        layers.conv2d_transpose(input=x, num_filters=3)
    except ValueError as e:
        print('ValueError:', e)
exe.run(repro_startup)
print(exe.run(repro, feed={'x': np.ones((1, 2, 4, 4), 'float32')}, fetch_list=[y])[0].shape, y.shape)
