# fluid.nets.img_conv_group, the VGG block of the 2018 image chapters
# (conv2d per entry, batch_norm carrying the activation where asked, a
# dropout where its rate is set, then pool2d), in its test clone; then
# fluid.transpiler.InferenceTranspiler on a copy of that program, as the
# 2018 book test used it: the transpiled program computes what the
# original computes (to 5 decimals; 1.x folded batch_norm into conv2d).
import numpy as np
import paddle.fluid as fluid

images = fluid.layers.data(name='pixel', shape=[2, 6, 6], dtype='float32')
conv1 = fluid.nets.img_conv_group(
    input=images, pool_size=2, pool_stride=2, conv_num_filter=[3, 3],
    conv_filter_size=3, conv_act='relu', conv_with_batchnorm=True,
    conv_batchnorm_drop_rate=[0.5, 0.0], pool_type='max',
    param_attr=fluid.ParamAttr(initializer=fluid.initializer.Constant(0.05)))
conv2 = fluid.nets.img_conv_group(
    input=conv1, pool_size=1, conv_num_filter=(2,), conv_padding=[0],
    conv_act='tanh', param_attr=[fluid.initializer.Constant(-0.1)], pool_type='avg')
print([op.type for op in fluid.default_main_program().global_block().ops])
print(conv1.shape, conv2.shape)
test_program = fluid.default_main_program().clone(for_test=True)

exe = fluid.Executor(fluid.CPUPlace())
exe.run(fluid.default_startup_program())
data = (np.arange(144, dtype='float32').reshape(2, 2, 6, 6) % 7) / 7.0 - 0.4
out, = exe.run(test_program, feed={'pixel': data}, fetch_list=[conv2])
print(out.shape, [round(float(v), 4) for v in out.flatten()])

transpiled = test_program.clone()
t = fluid.transpiler.InferenceTranspiler()
t.transpile(transpiled, fluid.CPUPlace())
again, = exe.run(transpiled, feed={'pixel': data}, fetch_list=[conv2.name])
np.testing.assert_almost_equal(out, again, decimal=5)
print('transpiled results agree')
for bad in ((test_program.global_block(), fluid.CPUPlace()), (transpiled, 'cpu')):
    try:
        t.transpile(*bad)
    except TypeError as e:
        print('TypeError', e)
try:
    fluid.nets.img_conv_group(input=images, conv_num_filter=8, pool_size=2)
except AssertionError:
    print('AssertionError: conv_num_filter must be a list or tuple')
