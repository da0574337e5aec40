"""paddle.dataset.uci_housing: the UCI Boston housing prices, as 1.x gave
them: 14 numbers a row in `housing.data`, the 13 features scaled by
`(x - mean) / (max - min)` over the whole file, the first 80% of the rows
to train and the rest to test; each sample `(features[13], price[1])`,
float64 arrays."""
import numpy as np

from . import common

__all__ = ["train", "test"]

URL = "http://paddlemodels.bj.bcebos.com/uci_housing/housing.data"
MD5 = "d4accdce7a25600298819f8e28e8d593"
feature_names = ["CRIM", "ZN", "INDUS", "CHAS", "NOX", "RM", "AGE", "DIS", "RAD",
                 "TAX", "PTRATIO", "B", "LSTAT"]

# Loaded once per process, as in 1.x.
UCI_TRAIN_DATA = None
UCI_TEST_DATA = None


def load_data(filename, feature_num=14, ratio=0.8):
    global UCI_TRAIN_DATA, UCI_TEST_DATA
    if UCI_TRAIN_DATA is not None and UCI_TEST_DATA is not None:
        return
    with open(filename) as f:
        data = np.array([float(token) for token in f.read().split()])
    data = data.reshape(data.shape[0] // feature_num, feature_num)
    maximums, minimums = data.max(axis=0), data.min(axis=0)
    avgs = data.sum(axis=0) / data.shape[0]
    for i in range(feature_num - 1):
        data[:, i] = (data[:, i] - avgs[i]) / (maximums[i] - minimums[i])
    offset = int(data.shape[0] * ratio)
    UCI_TRAIN_DATA = data[:offset]
    UCI_TEST_DATA = data[offset:]


def _reader(rows):
    def reader():
        for d in rows:
            yield d[:-1], d[-1:]

    return reader


def train():
    """The training set's reader."""
    load_data(common.download(URL, "uci_housing", MD5))
    return _reader(UCI_TRAIN_DATA)


def test():
    """The test set's reader."""
    load_data(common.download(URL, "uci_housing", MD5))
    return _reader(UCI_TEST_DATA)


def predict_reader():
    """The first test sample's features, as a tuple of one array."""
    load_data(common.download(URL, "uci_housing", MD5))
    return (UCI_TEST_DATA[0][:-1],)


def fetch():
    common.download(URL, "uci_housing", MD5)
