# 1.6's dynamic_lstmp as a speech model (Sak et al. 2014) used it: frames
# projected to the gates by an fc, an LSTM with a recurrent projection
# (proj_size 3 < hidden 4), one forward and one reversed with clipping
# and an identity projection over initial states, a regression loss and
# a few SGD steps through both.
import numpy as np
import paddle.fluid as fluid

fluid.default_startup_program().random_seed = 9
frames = fluid.layers.data(name='frames', shape=[5], dtype='float32', lod_level=1)
target = fluid.layers.data(name='target', shape=[1], dtype='float32', lod_level=1)
h0 = fluid.layers.data(name='h0', shape=[2], dtype='float32')
c0 = fluid.layers.data(name='c0', shape=[3], dtype='float32')
init = fluid.initializer.Uniform(-0.4, 0.4, seed=12)
gates = fluid.layers.fc(input=frames, size=16, param_attr=fluid.ParamAttr(initializer=init))
proj, cell = fluid.layers.dynamic_lstmp(input=gates, size=16, proj_size=3,
                                        param_attr=fluid.ParamAttr(initializer=init))
gates2 = fluid.layers.fc(input=frames, size=12, param_attr=fluid.ParamAttr(initializer=init))
proj2, cell2 = fluid.layers.dynamic_lstmp(input=gates2, size=12, proj_size=2, use_peepholes=False,
                                          is_reverse=True, proj_activation='identity',
                                          cell_clip=0.2, proj_clip=0.15, h_0=h0, c_0=c0,
                                          param_attr=fluid.ParamAttr(initializer=init))
pred = fluid.layers.fc(input=[proj, proj2], size=1)
loss = fluid.layers.reduce_mean(fluid.layers.square(pred - target))
fluid.optimizer.SGD(learning_rate=0.3).minimize(loss)
params = fluid.default_main_program().global_block().all_parameters()
print(proj.shape, cell.shape, proj2.shape, sorted((p.name, p.shape) for p in params if 'lstmp' in p.name))


def show(v):
    return np.round(np.asarray(v, dtype='float64'), 4).tolist()


exe = fluid.Executor(fluid.CPUPlace())
exe.run(fluid.default_startup_program())
place = fluid.CPUPlace()
lod = [[3, 1, 4]]
x = np.sin(np.arange(40, dtype='float32').reshape(8, 5) * 0.7)
y = (np.arange(8, dtype='float32').reshape(8, 1) % 3) / 2.0 - 0.5
feed = {'frames': fluid.create_lod_tensor(x, lod, place),
        'target': fluid.create_lod_tensor(y, lod, place),
        'h0': np.array([[0.1, -0.2], [0.05, 0.0], [-0.1, 0.2]], dtype='float32'),
        'c0': np.array([[0.3, -0.1, 0.0], [0.1, 0.1, -0.2], [0.0, 0.2, 0.1]], dtype='float32')}
for step in range(3):
    outs = exe.run(feed=feed, fetch_list=[loss, proj, cell, proj2, cell2, 'lstmp_0.w_1@GRAD'],
                   return_numpy=False)
    l, p, c, p2, c2, gw = [np.array(t) for t in outs]
    if step == 0:
        print(outs[1].lod(), outs[2].lod(), outs[3].recursive_sequence_lengths())
    print(step, show(l.reshape(-1)), show(p[3:6]), show(c[7]))
    print(show(p2[:, 0]), show(c2[:, 1]), show(gw))
