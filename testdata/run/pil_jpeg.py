# JPEG photos as 2019 image-classification data preparation handled them:
# pictures resized and saved as .jpg (Pillow's default quality 75, and 95
# for a "high quality" copy), read back by the training reader with
# Image.open(...).convert('RGB') or convert('L'), scaled to [0, 1] and laid
# out CHW. JPEG is lossy, so every number below depends on the decoder's
# IDCT and chroma upsampling and on the encoder's tables: they must be
# libjpeg's, as Pillow's are. A file cut short is an error, as in Pillow.
import hashlib
import os
import shutil
import tempfile

import numpy as np
from PIL import Image

rng = np.random.RandomState(2019)
h, w = 45, 61
yy, xx = np.mgrid[0:h, 0:w]
photo = np.zeros((h, w, 3), 'float64')
photo[:, :, 0] = 128 + 100 * np.sin(xx / 7.0)
photo[:, :, 1] = 2.5 * yy + 40 * (xx > 30)
photo[:, :, 2] = 255 * ((xx // 8 + yy // 8) % 2)
photo += rng.normal(0, 12, size=photo.shape)
photo = np.clip(photo, 0, 255).astype('uint8')

tmp = tempfile.mkdtemp()
try:
    for name, kwargs in [('default', {}), ('q95', {'quality': 95}), ('q30', {'quality': 30})]:
        path = os.path.join(tmp, name + '.jpg')
        Image.fromarray(photo).save(path, **kwargs)
        with open(path, 'rb') as f:
            data = f.read()
        print(name, len(data), hashlib.md5(data).hexdigest())
        im = Image.open(path)
        print(im.format, im.mode, im.size)
        rgb = np.array(im.convert('RGB')).astype('int64')
        print('rgb', int(rgb.sum()), rgb[0, :6, 0].tolist(), rgb[20, 30:36, 2].tolist())
        grey = np.array(im.convert('L')).astype('int64')
        print('L', int(grey.sum()), grey[44, -6:].tolist())
        chw = np.array(im.resize((32, 32), Image.BILINEAR)).astype('float32').transpose((2, 0, 1)) / 255.0
        print('chw', chw.shape, round(float(chw.mean()), 6), round(float(chw[1].std()), 6))

    # A greyscale JPEG (scanned digits) stays mode L.
    gpath = os.path.join(tmp, 'digit.jpg')
    Image.fromarray(photo).convert('L').save(gpath)
    g = Image.open(gpath)
    ga = np.array(g).astype('int64')
    print(g.mode, g.size, int(ga.sum()), ga[10, :8].tolist())

    # A PNG copy saved with the same arguments: Pillow ignores `quality`.
    ppath = os.path.join(tmp, 'lossless.png')
    Image.fromarray(photo).save(ppath, quality=95)
    print('png', bool((np.array(Image.open(ppath)) == photo).all()))

    # A download cut short.
    with open(os.path.join(tmp, 'default.jpg'), 'rb') as f:
        whole = f.read()
    cut = os.path.join(tmp, 'cut.jpg')
    with open(cut, 'wb') as f:
        f.write(whole[:len(whole) - 100])
    try:
        np.array(Image.open(cut))
    except OSError as e:
        print('cut file:', type(e).__name__, str(e).startswith('image file is truncated'))
finally:
    shutil.rmtree(tmp)
