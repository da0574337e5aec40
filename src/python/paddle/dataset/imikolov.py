"""paddle.dataset.imikolov: the Penn Treebank text of Mikolov's RNNLM
examples, as 1.x gave it from `simple-examples.tgz`
(`./simple-examples/data/ptb.{train,valid}.txt`).

Words are the lines' `bytes` split on whitespace, as 1.x read them on
Python 3; the marks `'<s>'`, `'<e>'` (counted once a line) and `'<unk>'`
are str. `train(word_idx, n)` yields the n-grams of each line framed by
`<s>` and `<e>` (`DataType.NGRAM`) or, with `DataType.SEQ`, the pairs
`([<s>] + ids, ids + [<e>])` of lines not longer than `n` (all if `n` is
not positive); `test` does the same on `ptb.valid.txt`.
"""
import collections
import tarfile

from . import common

__all__ = ["train", "test", "build_dict", "convert"]

URL = "http://www.fit.vutbr.cz/~imikolov/rnnlm/simple-examples.tgz"
MD5 = "30177ea32e27c525793142b6bf2c8e2d"

TRAIN_FILE = "./simple-examples/data/ptb.train.txt"
VALID_FILE = "./simple-examples/data/ptb.valid.txt"


class DataType(object):
    NGRAM = 1
    SEQ = 2


def word_count(f, word_freq=None):
    """Adds the words of the lines of `f`, and a `<s>` and an `<e>` per
    line, to `word_freq` (a new defaultdict(int) if None)."""
    if word_freq is None:
        word_freq = collections.defaultdict(int)
    for line in f:
        for word in line.strip().split():
            word_freq[word] += 1
        word_freq["<s>"] += 1
        word_freq["<e>"] += 1
    return word_freq


def _archive():
    return tarfile.open(common.download(URL, "imikolov", MD5))


def build_dict(min_word_freq=50):
    """Word -> id over ptb.train.txt and ptb.valid.txt, for the words seen
    more than `min_word_freq` times: the most frequent first, ties by the
    word; `'<unk>'` is the last id."""
    with _archive() as archive:
        freq = word_count(archive.extractfile(VALID_FILE),
                          word_count(archive.extractfile(TRAIN_FILE)))
    freq.pop("<unk>", None)
    kept = sorted((item for item in freq.items() if item[1] > min_word_freq),
                  key=lambda item: (-item[1], item[0]))
    words, _ = list(zip(*kept))
    word_idx = {word: i for i, word in enumerate(words)}
    word_idx["<unk>"] = len(words)
    return word_idx


def reader_creator(filename, word_idx, n, data_type):
    def reader():
        with _archive() as archive:
            lines = archive.extractfile(filename)
            unk = word_idx["<unk>"]
            for line in lines:
                if data_type == DataType.NGRAM:
                    assert n > -1, "Invalid gram length"
                    words = ["<s>"] + line.strip().split() + ["<e>"]
                    if len(words) < n:
                        continue
                    ids = [word_idx.get(w, unk) for w in words]
                    for end in range(n, len(ids) + 1):
                        yield tuple(ids[end - n:end])
                elif data_type == DataType.SEQ:
                    ids = [word_idx.get(w, unk) for w in line.strip().split()]
                    src = [word_idx["<s>"]] + ids
                    trg = ids + [word_idx["<e>"]]
                    if n > 0 and len(src) > n:
                        continue
                    yield src, trg
                else:
                    assert False, "Unknow data type"

    return reader


def train(word_idx, n, data_type=DataType.NGRAM):
    """The training text's reader (ptb.train.txt)."""
    return reader_creator(TRAIN_FILE, word_idx, n, data_type)


def test(word_idx, n, data_type=DataType.NGRAM):
    """The test text's reader (ptb.valid.txt)."""
    return reader_creator(VALID_FILE, word_idx, n, data_type)


def fetch():
    common.download(URL, "imikolov", MD5)


def convert(path):
    """1.x wrote the 5-gram train and test sets as RecordIO files."""
    word_dict = build_dict()
    common.convert(path, train(word_dict, 5), 1000, "imikolov_train")
    common.convert(path, test(word_dict, 5), 1000, "imikolov_test")
