# Images as 2018-19 inference scripts prepared them with PIL: written and
# read back as PNG, converted to grey (the book's recognize_digits infer:
# convert('L'), resize to 28x28 with ANTIALIAS, scaled to [-1, 1]) or kept
# RGB and laid out CHW (image_classification's infer), cropped, flipped
# and rotated for augmentation, and np.array(img) of each. Every
# resampling filter, shrinking and enlarging, with and without a box.
import os
import shutil
import tempfile

import numpy as np
from PIL import Image

rng = np.random.RandomState(7)
rgb = rng.randint(0, 256, size=(37, 53, 3)).astype('uint8')
tmp = tempfile.mkdtemp()
path = os.path.join(tmp, 'digit.png')
Image.fromarray(rgb).save(path)

im = Image.open(path)
print(im.format, im.mode, im.size, im.width, im.height)
a = np.array(im)
print(a.shape, a.dtype, bool((a == rgb).all()))


def show(name, img):
    arr = np.array(img).astype('int64')
    print(name, img.mode, img.size, arr.shape, int(arr.sum()), arr.reshape(-1)[:8].tolist())


grey = im.convert('L')
show('L', grey)
show('RGBA', im.convert('RGBA'))
show('L->RGB', grey.convert('RGB'))
for name, f in [('nearest', Image.NEAREST), ('bilinear', Image.BILINEAR),
                ('bicubic', Image.BICUBIC), ('antialias', Image.ANTIALIAS),
                ('box', Image.BOX), ('hamming', Image.HAMMING)]:
    show('down ' + name, im.resize((28, 28), f))
    show('up ' + name, grey.resize((70, 61), f))
    show('box ' + name, im.resize((16, 12), f, box=(3, 5, 40, 30)))
show('default', im.resize((20, 15)))

digit = grey.resize((28, 28), Image.ANTIALIAS)
x = np.array(digit).reshape(1, 1, 28, 28).astype(np.float32) / 255.0 * 2.0 - 1.0
print('digit', x.shape, round(float(x.sum()), 4), round(float(x.min()), 4))
chw = np.array(im.resize((32, 32), Image.ANTIALIAS)).astype(np.float32).transpose((2, 0, 1)) / 255.0
print('chw', chw.shape, round(float(chw.mean()), 5))

show('crop', im.crop((10, 4, 30, 20)))
show('crop outside', im.crop((-3, -2, 8, 6)))
for name, m in [('flip lr', Image.FLIP_LEFT_RIGHT), ('flip tb', Image.FLIP_TOP_BOTTOM),
                ('rot90', Image.ROTATE_90), ('rot180', Image.ROTATE_180),
                ('rot270', Image.ROTATE_270), ('transpose', Image.TRANSPOSE),
                ('transverse', Image.TRANSVERSE)]:
    show(name, im.transpose(m))
show('rotate 90', im.rotate(90, expand=True))
print(grey.getpixel((3, 2)), im.getpixel((3, 2)), im.load()[5, 6])
with open(path, 'rb') as f:
    print(Image.open(f).size)
shutil.rmtree(tmp)
