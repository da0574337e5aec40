"""paddle.dataset.imdb: the IMDB movie reviews (aclImdb), as 1.x gave them
from `aclImdb_v1.tar.gz`.

A review is tokenized as 1.x did it on Python 3: its bytes with the
trailing newlines stripped, ASCII punctuation deleted, lower-cased and
split on whitespace, so words are `bytes` (and the dictionary's keys are
bytes, but for the str `'<unk>'`). Each sample is `(ids, label)`: the
review's word ids (unknown words get `word_idx['<unk>']`) and 0 for a
positive review, 1 for a negative one, positives first, each in the
tarball's order. `train(word_idx)` and `test(word_idx)` read the tarball
when they are called, as 1.x's did.
"""
import collections
import re
import string
import tarfile

from . import common

__all__ = ["build_dict", "train", "test", "convert"]

URL = "http://ai.stanford.edu/%7Eamaas/data/sentiment/aclImdb_v1.tar.gz"
MD5 = "7c2ac02c03563afcf9b574c7e56c153a"

_PUNCTUATION = string.punctuation.encode("ascii")


def tokenize(pattern):
    """The token lists of the tarball's members whose names `pattern`
    matches, reading the tarball from start to end once."""
    with tarfile.open(common.download(URL, "imdb", MD5)) as archive:
        for member in archive:
            if pattern.match(member.name):
                text = archive.extractfile(member).read()
                yield text.rstrip(b"\n\r").translate(None, _PUNCTUATION).lower().split()


def build_dict(pattern, cutoff):
    """Word -> id for the words seen more than `cutoff` times in the
    members `pattern` matches: the most frequent first, ties in byte order;
    `'<unk>'` is the last id."""
    freq = collections.defaultdict(int)
    for tokens in tokenize(pattern):
        for token in tokens:
            freq[token] += 1
    kept = sorted((item for item in freq.items() if item[1] > cutoff),
                  key=lambda item: (-item[1], item[0]))
    words, _ = list(zip(*kept))
    word_idx = {word: i for i, word in enumerate(words)}
    word_idx["<unk>"] = len(words)
    return word_idx


def reader_creator(pos_pattern, neg_pattern, word_idx):
    """Reads the positive then the negative reviews now; the reader yields
    them."""
    unk = word_idx["<unk>"]
    samples = []
    for pattern, label in ((pos_pattern, 0), (neg_pattern, 1)):
        for tokens in tokenize(pattern):
            samples.append(([word_idx.get(t, unk) for t in tokens], label))

    def reader():
        for ids, label in samples:
            yield ids, label

    return reader


def train(word_idx):
    """The training reviews (`aclImdb/train/{pos,neg}/*.txt`)."""
    return reader_creator(re.compile(r"aclImdb/train/pos/.*\.txt$"),
                          re.compile(r"aclImdb/train/neg/.*\.txt$"), word_idx)


def test(word_idx):
    """The test reviews (`aclImdb/test/{pos,neg}/*.txt`)."""
    return reader_creator(re.compile(r"aclImdb/test/pos/.*\.txt$"),
                          re.compile(r"aclImdb/test/neg/.*\.txt$"), word_idx)


def word_dict():
    """The dictionary of all reviews (train and test), words seen more than
    150 times."""
    return build_dict(re.compile(r"aclImdb/((train)|(test))/((pos)|(neg))/.*\.txt$"), 150)


def fetch():
    common.download(URL, "imdb", MD5)


def convert(path):
    """1.x wrote the train and test sets as RecordIO files under `path`."""
    w = word_dict()
    common.convert(path, lambda: train(w), 1000, "imdb_train")
    common.convert(path, lambda: test(w), 1000, "imdb_test")
