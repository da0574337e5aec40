# A 2019 training reader's augmentation (the fruit classifier of a popular
# tutorial series): each image rotated by a small random angle, then fed.
# Pillow's nearest rotation about the centre, corners black; also expand,
# fillcolor, another centre, translate, grey images and large angles; a
# half turn about another centre is a pure scaling, which Pillow steps in floats.
import random
import numpy as np
from PIL import Image

random.seed(4)
rng = np.random.RandomState(4)
rgb = Image.fromarray(rng.randint(0, 256, (30, 41, 3)).astype('uint8'))
grey = rgb.convert('L')


def digest(im):
    a = np.array(im).astype('int64')
    return im.mode, im.size, int(a.sum()), int((a * np.arange(a.size).reshape(a.shape) % 9973).sum())


for _ in range(4):
    angle = random.randint(-3, 3)
    print(angle, digest(rgb.rotate(angle, expand=False)))
for angle in (1.5, -17, 45, 90, 135, 270, 333.3):
    print(angle, digest(rgb.rotate(angle)), digest(grey.rotate(angle, expand=True)))
print(digest(rgb.rotate(20, fillcolor=(255, 0, 7))), digest(rgb.rotate(20, fillcolor=0x0000ff)))
print(digest(rgb.rotate(10, center=(3, 4))), digest(grey.rotate(-25, translate=(5, -2))))
print(digest(rgb.rotate(180, center=(10, 8))), digest(grey.rotate(360, translate=(2, 1))), digest(rgb.rotate(90)), digest(rgb.rotate(90, expand=True)))
