# Density prior boxes (1.2's face detectors: PyramidBox, FaceBoxes): dense
# grids of fixed-size boxes per feature-map place, 4-D and flattened to 2-D,
# auto and explicit steps, with and without clipping, float64 too.
import numpy as np
import paddle.fluid as fluid

image = fluid.layers.data(name='image', shape=[3, 48, 64], dtype='float32')
feat1 = fluid.layers.conv2d(image, num_filters=2, filter_size=3, stride=16, padding=1)
feat2 = fluid.layers.pool2d(feat1, pool_size=2, pool_stride=2)

box1, var1 = fluid.layers.density_prior_box(feat1, image, densities=[4, 2, 1],
                                            fixed_sizes=[16.0, 32.0, 64.0],
                                            fixed_ratios=[1.0], clip=True)
box2, var2 = fluid.layers.density_prior_box(input=feat2, image=image, densities=[3, 1],
                                            fixed_sizes=[20.0, 40.0],
                                            fixed_ratios=[1.0, 2.0], steps=[30.0, 20.0],
                                            offset=0.4, flatten_to_2d=True,
                                            variance=[0.1, 0.1, 0.2, 0.3])
feat64 = fluid.layers.data(name='feat64', shape=[2, 3, 5], dtype='float64')
image64 = fluid.layers.data(name='image64', shape=[1, 27, 41], dtype='float64')
box3, var3 = fluid.layers.density_prior_box(feat64, image64, densities=[2, 3],
                                            fixed_sizes=[7.0, 13.0], fixed_ratios=[0.5, 1.5],
                                            clip=True, offset=0.45)
print(box1.shape, var1.shape, box2.shape, var2.shape, box2.stop_gradient, box3.shape)

exe = fluid.Executor(fluid.CPUPlace())
exe.run(fluid.default_startup_program())
np.random.seed(7)
img = np.random.rand(1, 3, 48, 64).astype('float32')
outs = exe.run(feed={'image': img, 'feat64': np.zeros((1, 2, 3, 5)),
                     'image64': np.zeros((1, 1, 27, 41))},
               fetch_list=[box1, var1, box2, var2, box3, var3])
for name, o in zip(['box1', 'var1', 'box2', 'var2', 'box3', 'var3'], outs):
    flat = o.reshape(-1, 4).astype('float64')
    print(name, o.dtype, o.shape)
    print(np.round(flat[:6], 5).tolist())
    print(np.round(flat[-3:], 5).tolist())
    print(round(float(flat.sum()), 4), round(float(flat.min()), 5), round(float(flat.max()), 5))
