"""paddle.dataset.image: 1.x's image helpers for readers.

Images are numpy arrays in HWC layout (height, width, channels), as cv2
and PIL give them; `to_chw` makes the CHW layout Paddle's layers take.
The loaders and `resize_short` are OpenCV's (`cv2.imread`, `cv2.imdecode`,
`cv2.resize`): without the opencv-python package, which fluidc does not
have, they write 1.x's warning to stderr and fail its assertion, as 1.x
did. The crops, the flip, `to_chw` and `batch_images_from_tar` need only
numpy and the standard library.
"""
from __future__ import print_function

import os
import tarfile

import numpy as np
import six.moves.cPickle as pickle

try:
    import cv2
except ImportError:
    cv2 = None

__all__ = [
    "load_image_bytes", "load_image", "resize_short", "to_chw", "center_crop",
    "random_crop", "left_right_flip", "simple_transform", "load_and_transform",
    "batch_images_from_tar"
]


def _check_cv2():
    if cv2 is None:
        import sys
        sys.stderr.write(
            '''Warning with paddle image module: opencv-python should be imported,
         or paddle image module could NOT work; please install opencv-python first.''')
        return False
    return True


def batch_images_from_tar(data_file, dataset_name, img2label, num_per_batch=1024):
    """Pickles the images of the tar file `data_file` that `img2label`
    names (member name -> label), `num_per_batch` a file, as
    `{'label': [...], 'data': [image bytes, ...]}` (protocol 2) into
    `<data_file>_batch/<dataset_name>/batch_N`; returns the path of the
    list of those files (`<data_file>_batch/<dataset_name>.txt`). Done
    once: an existing batch directory is taken as it is."""
    batch_dir = data_file + "_batch"
    out_path = "%s/%s" % (batch_dir, dataset_name)
    meta_file = "%s/%s.txt" % (batch_dir, dataset_name)

    if os.path.exists(out_path):
        return meta_file
    os.makedirs(out_path)

    def dump(labels, data, file_id):
        with open("%s/batch_%d" % (out_path, file_id), "wb") as f:
            pickle.dump({"label": labels, "data": data}, f, protocol=2)

    tf = tarfile.open(data_file)
    data, labels, file_id = [], [], 0
    for mem in tf.getmembers():
        if mem.name in img2label:
            data.append(tf.extractfile(mem).read())
            labels.append(img2label[mem.name])
            if len(data) == num_per_batch:
                dump(labels, data, file_id)
                file_id += 1
                data, labels = [], []
    if len(data) > 0:
        dump(labels, data, file_id)

    with open(meta_file, "a") as meta:
        for name in os.listdir(out_path):
            meta.write(os.path.abspath("%s/%s" % (out_path, name)) + "\n")
    return meta_file


def load_image_bytes(bytes, is_color=True):
    """The image encoded in `bytes`: HWC BGR, or HW gray when not
    `is_color` (cv2.imdecode)."""
    assert _check_cv2() is True
    flag = 1 if is_color else 0
    file_bytes = np.asarray(bytearray(bytes), dtype=np.uint8)
    return cv2.imdecode(file_bytes, flag)


def load_image(file, is_color=True):
    """The image in the file `file`: HWC BGR, or HW gray when not
    `is_color` (cv2.imread)."""
    assert _check_cv2() is True
    # 1: color, 0: grayscale (the flags of every OpenCV version)
    flag = 1 if is_color else 0
    return cv2.imread(file, flag)


def resize_short(im, size):
    """`im` resized (bicubic) so that its shorter edge is `size`."""
    assert _check_cv2() is True
    h, w = im.shape[:2]
    h_new, w_new = size, size
    if h > w:
        h_new = size * h // w
    else:
        w_new = size * w // h
    return cv2.resize(im, (w_new, h_new), interpolation=cv2.INTER_CUBIC)


def to_chw(im, order=(2, 0, 1)):
    """`im` (HWC) transposed by `order`: CHW by default."""
    assert len(im.shape) == len(order)
    return im.transpose(order)


def center_crop(im, size, is_color=True):
    """The `size` x `size` center of `im` (HWC, or HW when not
    `is_color`)."""
    h, w = im.shape[:2]
    h_start = (h - size) // 2
    w_start = (w - size) // 2
    h_end, w_end = h_start + size, w_start + size
    if is_color:
        return im[h_start:h_end, w_start:w_end, :]
    return im[h_start:h_end, w_start:w_end]


def random_crop(im, size, is_color=True):
    """A `size` x `size` crop of `im` at a place drawn with
    np.random.randint (the row first)."""
    h, w = im.shape[:2]
    h_start = np.random.randint(0, h - size + 1)
    w_start = np.random.randint(0, w - size + 1)
    h_end, w_end = h_start + size, w_start + size
    if is_color:
        return im[h_start:h_end, w_start:w_end, :]
    return im[h_start:h_end, w_start:w_end]


def left_right_flip(im, is_color=True):
    """`im` mirrored left to right (HWC, or HW)."""
    if len(im.shape) == 3 and is_color:
        return im[:, ::-1, :]
    return im[:, ::-1]


def simple_transform(im, resize_size, crop_size, is_train, is_color=True, mean=None):
    """1.x's training augmentation: `resize_short`, then a random crop
    and a coin-flip mirror when `is_train` (else the center crop), CHW,
    float32, minus `mean` (one value per channel, or per element)."""
    im = resize_short(im, resize_size)
    if is_train:
        im = random_crop(im, crop_size, is_color=is_color)
        if np.random.randint(2) == 0:
            im = left_right_flip(im, is_color)
    else:
        im = center_crop(im, crop_size, is_color=is_color)
    if len(im.shape) == 3:
        im = to_chw(im)

    im = im.astype('float32')
    if mean is not None:
        mean = np.array(mean, dtype=np.float32)
        # one value per channel, or one per element
        if mean.ndim == 1 and is_color:
            mean = mean[:, np.newaxis, np.newaxis]
        elif mean.ndim != 1:
            assert len(mean.shape) == len(im)
        im -= mean
    return im


def load_and_transform(filename, resize_size, crop_size, is_train, is_color=True, mean=None):
    """`simple_transform` of the image in the file `filename`."""
    im = load_image(filename, is_color)
    return simple_transform(im, resize_size, crop_size, is_train, is_color, mean)
