# 1.x's sub-pixel and channel layers: pixel_shuffle (an ESPCN-style
# super-resolution head), shuffle_channel (ShuffleNet's group shuffle)
# and space_to_depth (YOLOv2's reorg, as 1.x's kernel moved the elements),
# trained a few steps; their gradients move back with the elements.
import numpy as np
import paddle.fluid as fluid

fluid.default_startup_program().random_seed = 23
img = fluid.layers.data(name='img', shape=[4, 4, 4], dtype='float32')
img.stop_gradient = False
feat = fluid.layers.conv2d(input=img, num_filters=8, filter_size=3, padding=1, act='tanh')
up = fluid.layers.pixel_shuffle(feat, upscale_factor=2)
mixed = fluid.layers.shuffle_channel(feat, group=4)
packed = fluid.layers.space_to_depth(img, blocksize=2)
deep = fluid.layers.space_to_depth(feat, 2)
print(up.shape, mixed.shape, packed.shape, deep.shape)
per_mixed = fluid.layers.assign(np.arange(8).astype('float32'))
per_deep = fluid.layers.assign(np.linspace(0, 1, 32).astype('float32'))
loss = fluid.layers.reduce_mean(fluid.layers.square(up - 0.2)) \
    + fluid.layers.reduce_sum(fluid.layers.elementwise_mul(fluid.layers.reduce_mean(mixed, dim=[2, 3]), per_mixed)) * 0.01 \
    + fluid.layers.reduce_mean(packed * packed) \
    + fluid.layers.reduce_sum(fluid.layers.elementwise_mul(fluid.layers.reduce_mean(deep, dim=[0, 2, 3]), per_deep))
fluid.optimizer.SGD(learning_rate=0.1).minimize(loss)
block = fluid.default_main_program().global_block()

exe = fluid.Executor(fluid.CPUPlace())
exe.run(fluid.default_startup_program())
feed = {'img': np.linspace(-1, 1, 3 * 4 * 4 * 4).reshape(3, 4, 4, 4).astype('float32')}
for step in range(3):
    out = exe.run(feed=feed, fetch_list=[loss, up, mixed, packed, deep, block.var('img@GRAD')])
    print(step, np.round(out[0], 5).tolist(), [o.shape for o in out[1:5]])
print(np.round(out[1][0, 1], 4).tolist())
print(np.round(out[2][1, :, 0, 0], 4).tolist())
print(np.round(out[3][2], 4).tolist())
print(np.round(out[4][0, :, 1, 1], 4).tolist())
print(np.round(out[5][0], 5).tolist())

# space_to_depth moves int64 values as they are.
prog, start = fluid.Program(), fluid.Program()
with fluid.program_guard(prog, start):
    ids = fluid.layers.data(name='ids', shape=[4, 2, 2], dtype='int64')
    r = fluid.layers.space_to_depth(ids, 2)
got, = exe.run(prog, feed={'ids': np.arange(32).reshape(2, 4, 2, 2).astype('int64')}, fetch_list=[r])
print(got.shape, got.reshape(-1).tolist(), got.dtype)
