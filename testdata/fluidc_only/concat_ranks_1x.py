# concat of inputs of different ranks (issue 37), as PaddleGAN's 2019
# CGAN generator joined its noise [-1, 100] with its label reshaped to
# [-1, 1, 1, 1]. Paddle 1.5's ConcatOp::InferShape gave Out the first
# input's dims, summing the dims at the axis, and its kernel flattened
# every input to [prod(dims before the axis), prod(dims from the axis)]
# (paddle/fluid/operators/concat_op.{cc,h}, math/concat_and_split.cc).
# Paddle 3.3.1 refuses inputs of different ranks, so this runs in fluidc
# only; numpy_concat_ranks_1x.py computes the same with numpy.
import numpy as np
import paddle.fluid as fluid
import paddle.fluid.layers as layers

noise = layers.data(name='noise', shape=[5], dtype='float32')
label = layers.data(name='label', shape=[1], dtype='float32')
feat = layers.data(name='feat', shape=[2, 3], dtype='float32')
y = layers.reshape(label, shape=[-1, 1, 1, 1])
y.stop_gradient = False
noise.stop_gradient = False
xy = layers.concat([noise, y], 1)
mix = layers.concat([feat, layers.reshape(feat, shape=[-1, 2, 3, 1])], axis=1)
print(xy.shape, mix.shape)

w = layers.create_parameter(shape=[6], dtype='float32',
                            default_initializer=fluid.initializer.Constant(0.5))
loss = layers.reduce_sum(layers.elementwise_mul(xy, w)) + layers.reduce_sum(mix)
grads = fluid.backward.append_backward(loss)

exe = fluid.Executor(fluid.CPUPlace())
exe.run(fluid.default_startup_program())
feed = {'noise': np.arange(10, dtype='float32').reshape(2, 5) / 4,
        'label': np.array([[1.], [3.]], dtype='float32'),
        'feat': np.arange(12, dtype='float32').reshape(2, 2, 3)}
out_xy, out_mix, dnoise, dy = exe.run(
    feed=feed, fetch_list=[xy, mix, noise.name + '@GRAD', y.name + '@GRAD'])
print(out_xy.shape, out_xy.sum())
print(out_xy)
print(out_mix.shape)
print(out_mix[1])
print(dnoise.shape, dnoise.sum(), dy.shape, dy.ravel())
