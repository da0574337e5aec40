# Color-jitter augmentation with PIL.ImageEnhance, as 2019 image-classification
# readers did (distort_color: brightness, contrast, color in random order).
from __future__ import print_function
import numpy as np
from PIL import Image, ImageEnhance

np.random.seed(11)
rgb = Image.fromarray(np.random.randint(0, 256, size=(4, 5, 3)).astype("uint8"))
gray = Image.fromarray(np.random.randint(0, 256, size=(3, 4)).astype("uint8"))
rgba = Image.fromarray(np.random.randint(0, 256, size=(2, 3, 4)).astype("uint8"))
la = Image.fromarray(np.random.randint(0, 256, size=(2, 2, 2)).astype("uint8"))


def digest(img):
    a = np.asarray(img).astype("int64")
    return img.mode, img.size, int(a.sum()), a.reshape(-1)[:8].tolist()


for name, img in [("rgb", rgb), ("gray", gray), ("rgba", rgba), ("la", la)]:
    for enhancer in (ImageEnhance.Brightness, ImageEnhance.Contrast, ImageEnhance.Color):
        e = enhancer(img)
        for factor in (0.0, 0.3, 0.5, 1.0, 1.37, 2.0, -0.5):
            print(name, enhancer.__name__, factor, digest(e.enhance(factor)))

# blend itself
a = Image.new("RGB", (2, 2), (10, 200, 30))
b = Image.new("RGB", (2, 2), (250, 0, 31))
for alpha in (0.1, 0.25, 0.7, 1.9, -1.2):
    print("blend", alpha, np.asarray(Image.blend(a, b, alpha))[0, 0].tolist())
try:
    Image.blend(a, gray, 0.5)
except ValueError as err:
    print("ValueError:", err)


def distort_color(img):
    def random_brightness(img, lower=0.5, upper=1.5):
        return ImageEnhance.Brightness(img).enhance(np.random.uniform(lower, upper))

    def random_contrast(img, lower=0.5, upper=1.5):
        return ImageEnhance.Contrast(img).enhance(np.random.uniform(lower, upper))

    def random_color(img, lower=0.5, upper=1.5):
        return ImageEnhance.Color(img).enhance(np.random.uniform(lower, upper))

    ops = [random_brightness, random_contrast, random_color]
    np.random.shuffle(ops)
    for op in ops:
        img = op(img)
    return img


for i in range(3):
    print("distort", i, digest(distort_color(rgb)))
