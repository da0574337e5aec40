"""paddle.dataset.mnist: the MNIST digits, as 1.x gave them from its four
gzipped idx files: each sample `(image, label)`, the image the 784 pixels
scaled to [-1, 1] in float32, the label an int."""
import gzip
import struct

import numpy

from . import common

__all__ = ["train", "test"]

URL_PREFIX = "https://dataset.bj.bcebos.com/mnist/"
TEST_IMAGE_URL = URL_PREFIX + "t10k-images-idx3-ubyte.gz"
TEST_IMAGE_MD5 = "9fb629c4189551a2d022fa330f9573f3"
TEST_LABEL_URL = URL_PREFIX + "t10k-labels-idx1-ubyte.gz"
TEST_LABEL_MD5 = "ec29112dd5afa0611ce80d1b7f02629c"
TRAIN_IMAGE_URL = URL_PREFIX + "train-images-idx3-ubyte.gz"
TRAIN_IMAGE_MD5 = "f68b3c2dcbeaaa9fbdd348bbdeb94873"
TRAIN_LABEL_URL = URL_PREFIX + "train-labels-idx1-ubyte.gz"
TRAIN_LABEL_MD5 = "d53e105ee54ea40749a09fcbcd1e9432"


def reader_creator(image_filename, label_filename, buffer_size):
    """A reader of the samples of an image file and a label file, read
    `buffer_size` at a time (so their counts are multiples of it)."""
    def reader():
        with gzip.GzipFile(image_filename, "rb") as f:
            img_buf = f.read()
        with gzip.GzipFile(label_filename, "rb") as f:
            lab_buf = f.read()
        _, _, rows, cols = struct.unpack_from(">IIII", img_buf, 0)
        offset_img = struct.calcsize(">IIII")
        _, label_num = struct.unpack_from(">II", lab_buf, 0)
        offset_lab = struct.calcsize(">II")
        step = 0
        while step < label_num:
            fmt_label = ">%dB" % buffer_size
            labels = struct.unpack_from(fmt_label, lab_buf, offset_lab)
            offset_lab += struct.calcsize(fmt_label)
            step += buffer_size
            fmt_images = ">%dB" % (buffer_size * rows * cols)
            images = numpy.array(struct.unpack_from(fmt_images, img_buf, offset_img),
                                 dtype="float32").reshape(buffer_size, rows * cols)
            offset_img += struct.calcsize(fmt_images)
            images = images / 255.0
            images = images * 2.0
            images = images - 1.0
            for i in range(buffer_size):
                yield images[i, :], int(labels[i])

    return reader


def train():
    """The training set's reader (60000 samples)."""
    return reader_creator(
        common.download(TRAIN_IMAGE_URL, "mnist", TRAIN_IMAGE_MD5),
        common.download(TRAIN_LABEL_URL, "mnist", TRAIN_LABEL_MD5), 100)


def test():
    """The test set's reader (10000 samples)."""
    return reader_creator(
        common.download(TEST_IMAGE_URL, "mnist", TEST_IMAGE_MD5),
        common.download(TEST_LABEL_URL, "mnist", TEST_LABEL_MD5), 100)


def fetch():
    common.download(TRAIN_IMAGE_URL, "mnist", TRAIN_IMAGE_MD5)
    common.download(TRAIN_LABEL_URL, "mnist", TRAIN_LABEL_MD5)
    common.download(TEST_IMAGE_URL, "mnist", TEST_IMAGE_MD5)
    common.download(TEST_LABEL_URL, "mnist", TEST_LABEL_MD5)
