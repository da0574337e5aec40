# The EAST text detector's post-processing: its geometry map (8 channels,
# each corner's x and y offset from the pixel, on a map 4 times smaller
# than the image) turned into corner coordinates by polygon_box_transform,
# in float32 and float64.
from __future__ import print_function

import numpy as np
import paddle.fluid as fluid

geo = fluid.layers.data(name='geo', shape=[8, 3, 4], dtype='float32')
quad = fluid.layers.polygon_box_transform(input=geo)
geo64 = fluid.layers.data(name='geo64', shape=[2, 2, 3], dtype='float64')
quad64 = fluid.layers.polygon_box_transform(geo64)
print(quad.shape, quad64.shape)

exe = fluid.Executor(fluid.CPUPlace())
exe.run(fluid.default_startup_program())
g = (np.arange(2 * 8 * 3 * 4).reshape(2, 8, 3, 4) % 11 * 0.75 - 3.0).astype('float32')
g64 = np.linspace(-1.0, 1.0, 12).reshape(1, 2, 2, 3)
q, q64 = exe.run(feed={'geo': g, 'geo64': g64}, fetch_list=[quad, quad64])
print(q.shape, q.dtype, q64.dtype)
print(q[0, 0].tolist())
print(q[0, 1].tolist())
print(q[1, 6].tolist())
print(q[1, 7].tolist())
print(np.round(q64, 6).tolist())
# The corners of the pixel at row 2, column 3 of the second image.
print([(float(q[1, k, 2, 3]), float(q[1, k + 1, 2, 3])) for k in range(0, 8, 2)])
