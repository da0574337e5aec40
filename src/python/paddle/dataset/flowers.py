"""paddle.dataset.flowers: 1.x's Oxford 102 Flowers readers (`train`,
`test`, `valid`; 1.x's "train" set is the dataset's `tstid` split and its
"test" set the `trnid` one).

1.x read the labels and the splits from `imagelabels.mat` and `setid.mat`
with `scipy.io.loadmat`, and decoded the JPEGs with OpenCV
(`paddle.dataset.image.load_image_bytes`). fluidc has neither scipy nor
cv2, so making a reader raises an ImportError that says so; the module,
its constants and `fetch` (which checks the cached files) are 1.x's.
"""
from __future__ import print_function

import functools

from .common import download
from .image import load_image_bytes, simple_transform

__all__ = ['train', 'test', 'valid']

DATA_URL = 'http://paddlemodels.cdn.bcebos.com/flowers/102flowers.tgz'
LABEL_URL = 'http://paddlemodels.cdn.bcebos.com/flowers/imagelabels.mat'
SETID_URL = 'http://paddlemodels.cdn.bcebos.com/flowers/setid.mat'
DATA_MD5 = '52808999861908f626f3c1f4e79d11fa'
LABEL_MD5 = 'e0620be6f572b9609742df49c70aed4d'
SETID_MD5 = 'a5357ecc9cb78c4bef273ce3793fc85c'
# 1.x trained on the larger `tstid` split.
TRAIN_FLAG = 'tstid'
TEST_FLAG = 'trnid'
VALID_FLAG = 'valid'


def default_mapper(is_train, sample):
    """(image bytes, label) -> (the flattened float32 CHW image after
    `simple_transform(img, 256, 224, is_train, mean=BGR means)`, label)."""
    img, label = sample
    img = load_image_bytes(img)
    img = simple_transform(img, 256, 224, is_train, mean=[103.94, 116.78, 123.68])
    return img.flatten().astype('float32'), label


train_mapper = functools.partial(default_mapper, True)
test_mapper = functools.partial(default_mapper, False)


def reader_creator(data_file, label_file, setid_file, dataset_name, mapper,
                   buffered_size=1024, use_xmap=True, cycle=False):
    """1.x's reader of the `dataset_name` split: needs scipy.io.loadmat
    for the .mat files and cv2 for the images, which fluidc lacks."""
    raise ImportError(
        "paddle.dataset.flowers needs scipy (scipy.io.loadmat reads %s and %s) and "
        "opencv-python (cv2 decodes the images of %s), as Paddle 1.x did; fluidc has "
        "neither. Read the images with PIL (from PIL import Image) in a reader of your own"
        % (label_file, setid_file, data_file))


def _reader(flag, mapper, buffered_size, use_xmap, cycle=False):
    return reader_creator(DATA_URL.split('/')[-1], LABEL_URL.split('/')[-1],
                          SETID_URL.split('/')[-1], flag, mapper, buffered_size,
                          use_xmap, cycle=cycle)


def train(mapper=train_mapper, buffered_size=1024, use_xmap=True, cycle=False):
    """1.x's training reader: (flattened 3x224x224 float32 image, label in
    0..101), randomly cropped and flipped."""
    return _reader(TRAIN_FLAG, mapper, buffered_size, use_xmap, cycle)


def test(mapper=test_mapper, buffered_size=1024, use_xmap=True, cycle=False):
    """1.x's test reader (center crops)."""
    return _reader(TEST_FLAG, mapper, buffered_size, use_xmap, cycle)


def valid(mapper=test_mapper, buffered_size=1024, use_xmap=True):
    """1.x's validation reader (center crops)."""
    return _reader(VALID_FLAG, mapper, buffered_size, use_xmap)


def fetch():
    """The three files Paddle 1.x downloaded (fluidc checks they are in
    the cache)."""
    download(DATA_URL, 'flowers', DATA_MD5)
    download(LABEL_URL, 'flowers', LABEL_MD5)
    download(SETID_URL, 'flowers', SETID_MD5)
