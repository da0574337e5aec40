# The temporal shift module of 2019's TSM video models (1.x's layer): the
# frames of each clip stacked in the batch, a quarter of the channels
# shifted one frame back, a quarter one frame forward, then a conv and a
# classifier, trained a few SGD steps; the shifted maps and the frames'
# gradients print what Paddle computes.
import numpy as np
import paddle.fluid as fluid

T = 3
frames = fluid.layers.data(name='frames', shape=[8, 3, 3], dtype='float32')
frames.stop_gradient = False
label = fluid.layers.data(name='label', shape=[1], dtype='int64')
shifted = fluid.layers.temporal_shift(frames, seg_num=T)
odd = fluid.layers.temporal_shift(frames, seg_num=T, shift_ratio=0.2)
conv = fluid.layers.conv2d(shifted + odd, num_filters=4, filter_size=3, padding=1, act='relu',
                           param_attr=fluid.ParamAttr(initializer=fluid.initializer.Uniform(-0.3, 0.3, seed=4)))
clip = fluid.layers.reshape(fluid.layers.pool2d(conv, pool_type='avg', global_pooling=True), [-1, T * 4])
logits = fluid.layers.fc(clip, 2, param_attr=fluid.ParamAttr(initializer=fluid.initializer.Uniform(-0.3, 0.3, seed=5)))
loss = fluid.layers.mean(fluid.layers.softmax_with_cross_entropy(logits, label))
fluid.optimizer.SGD(learning_rate=0.5).minimize(loss)
print(shifted.shape, odd.shape)

exe = fluid.Executor(fluid.CPUPlace())
exe.run(fluid.default_startup_program())
x = (np.arange(2 * T * 8 * 9, dtype='float32').reshape(2 * T, 8, 3, 3) % 11) / 10.0
y = np.array([[1], [0]], dtype='int64')
for step in range(3):
    l, s, o, g = exe.run(feed={'frames': x, 'label': y}, fetch_list=[loss, shifted, odd, 'frames@GRAD'])
    print(step, np.round(l, 5))
    print(np.round(s[:, :, 0, 0], 3).tolist())
    print(np.round(o[1, :, 1, 1], 3).tolist())
    print(np.round(g[:, :, 1, 2] * 100, 4).tolist())
