# Coordinate grids as 2019 image and detection code built them: pixel
# coordinates with np.mgrid (yy, xx for a Gaussian heat map, anchor
# centers), np.ogrid's open axes broadcast into a distance map, and a
# complex step for n evenly spaced points with the end included.
import numpy as np

yy, xx = np.mgrid[0:4, 0:6]
print(yy.dtype, yy.shape, xx.shape)
print(yy)
print(xx)
heat = np.exp(-((xx - 2.0) ** 2 + (yy - 1.5) ** 2) / 2.0)
print(np.round(heat, 4))

g = np.mgrid[0:3]
print(g, g.dtype)
print(np.mgrid[-1:1:5j])
print(np.mgrid[0:1:0.25, 0:2].shape, np.mgrid[0:1:0.25, 0:2].dtype)
cy, cx = np.mgrid[8:64:16, 8:64:16]
anchors = np.stack([cx.ravel(), cy.ravel()], axis=1)
print(anchors.shape, anchors[:5].tolist())

oy, ox = np.ogrid[0:3, 0:5]
print(type(np.ogrid[0:3, 0:5]).__name__, oy.shape, ox.shape, oy.dtype)
print(np.sqrt(oy ** 2 + ox ** 2).round(3))
print(np.ogrid[0:2:3j])
print(np.mgrid[0:2, 0:3, 0:2].shape)
