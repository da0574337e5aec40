# conv2d with groups == C_in, num_filters a multiple of C_in and
# use_cudnn=False builds a depthwise_conv2d op, as 1.x's conv2d did
# (issue 38); with cudnn on, or groups != C_in, it stays conv2d. The
# depthwise conv (two filters per channel, stride 1, padding 1) trains two
# SGD steps on fixed values; a grouped conv2d with the same filters
# trains alongside for comparison.
import numpy as np
import paddle.fluid as fluid
import paddle.fluid.layers as layers

C, M = 3, 2
filters = (np.arange(C * M * 9, dtype='float32').reshape(C * M, 1, 3, 3) % 7 - 3.0) / 10.0
image = (np.arange(2 * C * 5 * 5, dtype='float32').reshape(2, C, 5, 5) % 11 - 5.0) / 5.0
target = np.ones([2, C * M, 5, 5], dtype='float32') * 0.5


def conv(x, name, use_cudnn, groups=C):
    return layers.conv2d(
        input=x, num_filters=C * M, filter_size=3, padding=1, groups=groups,
        use_cudnn=use_cudnn, act='relu',
        param_attr=fluid.ParamAttr(name=name + '_w', initializer=fluid.initializer.NumpyArrayInitializer(filters)),
        bias_attr=fluid.ParamAttr(name=name + '_b', initializer=fluid.initializer.Constant(0.1)))


x = layers.data(name='x', shape=[C, 5, 5], dtype='float32')
y = layers.data(name='y', shape=[C * M, 5, 5], dtype='float32')
depthwise = conv(x, 'dw', use_cudnn=False)
grouped = conv(x, 'cudnn', use_cudnn=True)
loss_dw = layers.mean(layers.square(layers.elementwise_sub(depthwise, y)))
loss_g = layers.mean(layers.square(layers.elementwise_sub(grouped, y)))
loss = layers.elementwise_add(loss_dw, loss_g)
fluid.optimizer.SGD(learning_rate=0.5).minimize(loss)

# A conv2d whose groups is not C_in stays conv2d.
other = fluid.Program()
with fluid.program_guard(other, fluid.Program()):
    xo = layers.data(name='x', shape=[C + 1, 5, 5], dtype='float32')
    layers.conv2d(input=xo, num_filters=4, filter_size=3, groups=2, use_cudnn=False)
    layers.conv2d(input=xo, num_filters=6, filter_size=3, groups=4, use_cudnn=False)

ops = fluid.default_main_program().global_block().ops
print([op.type for op in ops if not op.type.endswith('_grad') and op.type != 'sgd'][:6])
print(sorted(set(op.type for op in ops if 'conv' in op.type)))
print([op.type for op in other.global_block().ops])
print(depthwise.shape, grouped.shape)

exe = fluid.Executor(fluid.CPUPlace())
exe.run(fluid.default_startup_program())
for step in range(2):
    l_dw, l_g = exe.run(feed={'x': image, 'y': target}, fetch_list=[loss_dw, loss_g])
    print(step, np.round(l_dw, 5), np.round(l_g, 5))
scope = fluid.global_scope()
for name in ['dw_w', 'dw_b', 'cudnn_w', 'cudnn_b']:
    print(name, np.round(np.array(scope.find_var(name).get_tensor()), 4).reshape(-1)[:12])
out, = exe.run(feed={'x': image, 'y': target}, fetch_list=[depthwise])
print(np.round(out[1, 3], 3))
