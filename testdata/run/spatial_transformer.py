# A spatial transformer network (Jaderberg et al. 2015) as 1.x built it:
# a localization fc predicts each image's 2x3 affine map (initialized to
# a zoom with a shift), affine_grid turns it into a sampling grid and
# grid_sampler warps the image; a few SGD steps train the localization
# and a classifier through the warp. Also affine_grid with the output
# shape as a Variable, and 1.x's grid_sampler returning (not raising) its
# ValueError.
import numpy as np
import paddle.fluid as fluid

fluid.default_startup_program().random_seed = 17
img = fluid.layers.data(name='img', shape=[2, 5, 6], dtype='float32')
label = fluid.layers.data(name='label', shape=[1], dtype='int64')
theta_bias = np.array([0.8, 0.1, 0.2, -0.15, 0.9, -0.1], dtype='float32')
loc = fluid.layers.fc(input=img, size=6,
                      param_attr=fluid.ParamAttr(initializer=fluid.initializer.Uniform(-0.05, 0.05, seed=2)),
                      bias_attr=fluid.ParamAttr(name='loc_b', initializer=fluid.initializer.NumpyArrayInitializer(theta_bias)))
theta = fluid.layers.reshape(loc, [-1, 2, 3])
grid = fluid.layers.affine_grid(theta, [4, 2, 5, 6])
warped = fluid.layers.grid_sampler(img, grid)
shape = fluid.layers.assign(np.array([4, 2, 3, 4], dtype='int32'))
small = fluid.layers.affine_grid(theta, shape)
logits = fluid.layers.fc(input=warped, size=3,
                         param_attr=fluid.ParamAttr(initializer=fluid.initializer.Uniform(-0.3, 0.3, seed=4)))
loss = fluid.layers.mean(fluid.layers.softmax_with_cross_entropy(logits, label))
fluid.optimizer.SGD(learning_rate=0.1).minimize(loss)
print(grid.shape, warped.shape, small.shape)
print(type(fluid.layers.grid_sampler(img, 'grid')).__name__)
try:
    fluid.layers.affine_grid(theta, 5)
except ValueError as e:
    print('ValueError', e)


def show(v):
    return np.round(np.asarray(v, dtype='float64'), 4).tolist()


exe = fluid.Executor(fluid.CPUPlace())
exe.run(fluid.default_startup_program())
x = (np.arange(240, dtype='float32').reshape(4, 2, 5, 6) % 7) / 3.0 - 1.0
y = np.array([[0], [2], [1], [2]], dtype='int64')
for step in range(3):
    l, g, wv, sm, gb = exe.run(feed={'img': x, 'label': y},
                               fetch_list=[loss, grid, warped, small, 'loc_b@GRAD'])
    print(step, show(l), show(g[1, 2]), show(sm[3, 2]))
    print(show(wv[2, 1, 1:4]), show(gb))
