# PIL.ImageOps as a 2019 GAN data reader used it: training images mirrored at
# random (PaddleGAN data_reader: `ImageOps.mirror(img)` when random > 0.5),
# and the other simple ImageOps of Pillow 5.
from __future__ import print_function
import random
import numpy as np
from PIL import Image, ImageOps

np.random.seed(3)
random.seed(3)
rgb = Image.fromarray(np.random.randint(0, 256, size=(3, 4, 3)).astype("uint8"))
gray = Image.fromarray(np.random.randint(0, 256, size=(4, 5)).astype("uint8"))
rgba = Image.fromarray(np.random.randint(0, 256, size=(2, 3, 4)).astype("uint8"))


def digest(img):
    a = np.asarray(img).astype("int64")
    return img.mode, img.size, int(a.sum()), a.reshape(-1)[:6].tolist()


for step in range(4):
    img = rgb
    if random.random() > 0.5:
        img = ImageOps.mirror(img)
    print(step, digest(img))

for name, img in [("rgb", rgb), ("gray", gray), ("rgba", rgba)]:
    print(name, "mirror", digest(ImageOps.mirror(img)))
    print(name, "flip", digest(ImageOps.flip(img)))
    print(name, "grayscale", digest(ImageOps.grayscale(img)))
    for border in (0, 1, (1, 0), (0, 1, 1, 0)):
        print(name, "crop", border, digest(ImageOps.crop(img, border)))
    try:
        print(name, "invert", digest(ImageOps.invert(img)))
    except (IOError, OSError) as e:
        # Pillow 5 said "not supported for this image mode", Pillow 10 names the mode
        print(name, "invert", type(e).__name__)
