# Preparing images for a CNN with paddle.dataset.image's numpy helpers, as
# 2018 image-classification readers did (HWC -> crop/flip -> CHW).
from __future__ import print_function
import numpy as np
import paddle.dataset.image as image

np.random.seed(7)
hwc = np.arange(5 * 6 * 3, dtype="uint8").reshape(5, 6, 3)

chw = image.to_chw(hwc)
print("to_chw:", chw.shape, chw.dtype, chw[1, 0].tolist())
print("to_chw order:", image.to_chw(hwc, order=(1, 0, 2)).shape)

c = image.center_crop(hwc, 3)
print("center_crop:", c.shape, c[:, :, 0].tolist())
g = hwc[:, :, 0]
print("center_crop gray:", image.center_crop(g, 2, is_color=False).tolist())

for i in range(3):
    r = image.random_crop(hwc, 4)
    print("random_crop:", r.shape, int(r[0, 0, 0]))
print("random_crop gray:", image.random_crop(g, 2, is_color=False).tolist())

f = image.left_right_flip(hwc)
print("flip:", f.shape, f[0, :, 2].tolist())
print("flip gray:", image.left_right_flip(g, is_color=False)[1].tolist())
print("flip HW with is_color:", image.left_right_flip(g)[0].tolist())

# A reader's mapper: crop, flip, CHW, mean subtraction.
mean = np.array([10.0, 20.0, 30.0], dtype="float32")[:, np.newaxis, np.newaxis]
x = image.to_chw(image.left_right_flip(image.center_crop(hwc, 4))).astype("float32") - mean
print("mapped:", x.shape, x.dtype, x[:, 0, 0].tolist())

try:
    image.to_chw(g)
except AssertionError:
    print("to_chw of a 2-D image: AssertionError")

# load_image is OpenCV's; without cv2 (not installed) 1.x failed its assertion.
print("has cv2:", image.cv2 is not None)
try:
    image.load_image("no_such.jpg")
except AssertionError:
    print("load_image without cv2: AssertionError")

# models' image_classification/train.py imported the flowers dataset module
import paddle.dataset.flowers as flowers
print("flowers splits:", flowers.TRAIN_FLAG, flowers.TEST_FLAG, flowers.VALID_FLAG,
      callable(flowers.train), callable(flowers.test), callable(flowers.valid))
