"""paddle.dataset.wmt14: the shrunk WMT14 French-English set of 1.x's
machine translation book chapter, as 1.x gave it from `wmt14.tgz`.

The tarball holds the dictionaries (the members whose names end with
`src.dict` and `trg.dict`, a word a line, `<s>`, `<e>`, `<unk>` first)
and the sets (names ending with `train/train`, `test/test`, `gen/gen`:
a pair a line, source and target separated by a tab). A dictionary is
its first `dict_size` lines. Each sample is `(source ids framed by <s>
and <e>, [<s>] + target ids, target ids + [<e>])`, unknown words being
id 2; pairs with more than 80 source ids (counting the marks) or 80
target words are left out.
"""
import tarfile

from . import common

__all__ = ["train", "test", "get_dict", "convert"]

URL_DEV_TEST = "http://www-lium.univ-lemans.fr/~schwenk/cslm_joint_paper/data/dev+test.tgz"
MD5_DEV_TEST = "7d7897317ddd8ba0ae5c5fa7248d3ff5"
URL_TRAIN = "http://paddlemodels.bj.bcebos.com/wmt/wmt14.tgz"
MD5_TRAIN = "0791583d57d5beb693b9414c5b36798c"
URL_MODEL = "http://paddlemodels.bj.bcebos.com/wmt%2Fwmt14.tgz"
MD5_MODEL = "0cb4a5366189b6acba876491c8724fa3"

START = "<s>"
END = "<e>"
UNK = "<unk>"
UNK_IDX = 2


def _first_lines_dict(f, size):
    d = {}
    for i, line in enumerate(f):
        if i >= size:
            break
        d[line.strip().decode()] = i
    return d


def _only_member(archive, suffix):
    names = [m.name for m in archive if m.name.endswith(suffix)]
    assert len(names) == 1
    return names[0]


def __read_to_dict(tar_file, dict_size):
    """(source dict, target dict): word -> id for the first `dict_size`
    lines of each."""
    with tarfile.open(tar_file, mode="r") as f:
        src_dict = _first_lines_dict(f.extractfile(_only_member(f, "src.dict")), dict_size)
        trg_dict = _first_lines_dict(f.extractfile(_only_member(f, "trg.dict")), dict_size)
        return src_dict, trg_dict


def reader_creator(tar_file, file_name, dict_size):
    def reader():
        src_dict, trg_dict = __read_to_dict(tar_file, dict_size)
        with tarfile.open(tar_file, mode="r") as f:
            names = [m.name for m in f if m.name.endswith(file_name)]
            for name in names:
                for line in f.extractfile(name):
                    pair = line.decode().strip().split("\t")
                    if len(pair) != 2:
                        continue
                    src_ids = [src_dict.get(w, UNK_IDX)
                               for w in [START] + pair[0].split() + [END]]
                    trg_ids = [trg_dict.get(w, UNK_IDX) for w in pair[1].split()]
                    if len(src_ids) > 80 or len(trg_ids) > 80:
                        continue
                    trg_ids_next = trg_ids + [trg_dict[END]]
                    yield src_ids, [trg_dict[START]] + trg_ids, trg_ids_next

    return reader


def train(dict_size):
    """The training set's reader (`train/train`)."""
    return reader_creator(common.download(URL_TRAIN, "wmt14", MD5_TRAIN),
                          "train/train", dict_size)


def test(dict_size):
    """The test set's reader (`test/test`)."""
    return reader_creator(common.download(URL_TRAIN, "wmt14", MD5_TRAIN),
                          "test/test", dict_size)


def gen(dict_size):
    """The generation set's reader (`gen/gen`)."""
    return reader_creator(common.download(URL_TRAIN, "wmt14", MD5_TRAIN),
                          "gen/gen", dict_size)


def get_dict(dict_size, reverse=True):
    """(source dict, target dict) of `dict_size` words: id -> word, or
    word -> id with `reverse=False`."""
    tar_file = common.download(URL_TRAIN, "wmt14", MD5_TRAIN)
    src_dict, trg_dict = __read_to_dict(tar_file, dict_size)
    if reverse:
        src_dict = {v: k for k, v in src_dict.items()}
        trg_dict = {v: k for k, v in trg_dict.items()}
    return src_dict, trg_dict


def fetch():
    common.download(URL_TRAIN, "wmt14", MD5_TRAIN)
    common.download(URL_MODEL, "wmt14", MD5_MODEL)


def convert(path):
    """1.x wrote the train and test sets (30000 words) as RecordIO files."""
    dict_size = 30000
    common.convert(path, train(dict_size), 1000, "wmt14_train")
    common.convert(path, test(dict_size), 1000, "wmt14_test")
