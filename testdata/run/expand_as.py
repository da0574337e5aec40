# 1.6's layers.expand_as: a per-sample gate tiled to the shape of a feature
# map, and a small tile repeated to a target's shape, trained a few steps;
# the gradient of a tiled input adds up over its copies.
import numpy as np
import paddle.fluid as fluid

fluid.default_startup_program().random_seed = 67
feat = fluid.layers.data(name='feat', shape=[3, 4], dtype='float32')
feat.stop_gradient = False
gate_in = fluid.layers.data(name='gate_in', shape=[1, 2], dtype='float32')
gate_in.stop_gradient = False
gate = fluid.layers.expand_as(gate_in, target_tensor=feat)
tile = fluid.layers.data(name='tile', shape=[2, 3], dtype='float32', append_batch_size=False)
tile.stop_gradient = False
big = fluid.layers.data(name='big', shape=[4, 6], dtype='float32', append_batch_size=False)
tiled = fluid.layers.expand_as(x=tile, target_tensor=big)
mixed = fluid.layers.fc(input=fluid.layers.elementwise_mul(feat, gate), size=3, act='tanh')
loss = fluid.layers.mean(mixed) + fluid.layers.reduce_sum(fluid.layers.elementwise_mul(tiled, big))
fluid.optimizer.SGD(learning_rate=0.1).minimize(loss)
block = fluid.default_main_program().global_block()

exe = fluid.Executor(fluid.CPUPlace())
exe.run(fluid.default_startup_program())
feed = {'feat': np.linspace(-1, 1, 24).reshape(2, 3, 4).astype('float32'),
        'gate_in': np.array([[[0.5, -1.0]], [[2.0, 0.25]]]).astype('float32'),
        'tile': np.arange(6).reshape(2, 3).astype('float32'),
        'big': np.linspace(0, 1, 24).reshape(4, 6).astype('float32')}
for step in range(3):
    out = exe.run(feed=feed, fetch_list=[loss, gate, tiled, 'gate_in@GRAD', 'tile@GRAD',
                                         'feat@GRAD'])
    print(step, np.round(out[0], 5).tolist(), [o.shape for o in out[1:]])
for o in out[1:]:
    print(np.round(o, 5).tolist())
