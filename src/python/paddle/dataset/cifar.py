"""paddle.dataset.cifar: CIFAR-10 and CIFAR-100, as 1.x gave them from
the python-version tarballs: each sample `(image, label)`, the image the
3072 pixels scaled to [0, 1] in float32, the label an int. The batches
are numpy 1.x pickles (uint8 arrays), read by `_numpy_pickle`."""
import tarfile

import numpy

from . import _numpy_pickle, common

__all__ = ["train100", "test100", "train10", "test10"]

URL_PREFIX = "https://www.cs.toronto.edu/~kriz/"
CIFAR10_URL = URL_PREFIX + "cifar-10-python.tar.gz"
CIFAR10_MD5 = "c58f30108f718f92721af3b95e74349a"
CIFAR100_URL = URL_PREFIX + "cifar-100-python.tar.gz"
CIFAR100_MD5 = "eb9058c3a382ffc7106e4002c42a8d85"


def reader_creator(filename, sub_name, cycle=False):
    """A reader of the samples of the tarball's members whose names hold
    `sub_name` (`data_batch`, `test_batch`, `train`, `test`); with `cycle`,
    it starts over at the end, forever."""
    def read_batch(batch):
        data = batch[b"data"]
        labels = batch.get(b"labels", batch.get(b"fine_labels", None))
        assert labels is not None
        for sample, label in zip(data, labels):
            yield (sample / 255.0).astype(numpy.float32), int(label)

    def reader():
        with tarfile.open(filename, mode="r") as f:
            names = [m.name for m in f if sub_name in m.name]
            while True:
                for name in names:
                    batch = _numpy_pickle.load(f.extractfile(name), encoding="bytes")
                    for item in read_batch(batch):
                        yield item
                if not cycle:
                    break

    return reader


def train100():
    """CIFAR-100's training set (labels 0..99)."""
    return reader_creator(common.download(CIFAR100_URL, "cifar", CIFAR100_MD5), "train")


def test100():
    """CIFAR-100's test set."""
    return reader_creator(common.download(CIFAR100_URL, "cifar", CIFAR100_MD5), "test")


def train10(cycle=False):
    """CIFAR-10's training set (labels 0..9)."""
    return reader_creator(common.download(CIFAR10_URL, "cifar", CIFAR10_MD5),
                          "data_batch", cycle=cycle)


def test10(cycle=False):
    """CIFAR-10's test set."""
    return reader_creator(common.download(CIFAR10_URL, "cifar", CIFAR10_MD5),
                          "test_batch", cycle=cycle)


def fetch():
    common.download(CIFAR10_URL, "cifar", CIFAR10_MD5)
    common.download(CIFAR100_URL, "cifar", CIFAR100_MD5)
