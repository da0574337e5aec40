"""paddle.dataset.wmt16: the WMT16 multimodal English-German set
(Multi30K, tokenized), as 1.x gave it from `wmt16.tar.gz` (members
`wmt16/train`, `wmt16/test`, `wmt16/val`: an English and a German
sentence a line, separated by a tab).

A language's dictionary of `dict_size` words is the file
`~/.cache/paddle/dataset/wmt16/<lang>_<dict_size>.dict`: `<s>`, `<e>`,
`<unk>`, then the train set's words of that language, the most frequent
first (ties in order of first appearance), `dict_size` lines in all.
The readers write it when it is missing or has another number of lines,
as 1.x did. Sizes are capped at the vocabulary of the real set (11250
English, 19220 German words). Each sample is `([<s>] + source ids +
[<e>], [<s>] + target ids, target ids + [<e>])`, unknown words being the
`<unk>` id.
"""
import os
import tarfile
from collections import defaultdict

from . import common

__all__ = ["train", "test", "validation", "convert", "fetch", "get_dict"]

DATA_URL = "http://paddlemodels.bj.bcebos.com/wmt/wmt16.tar.gz"
DATA_MD5 = "0c38be43600334966403524a40dcd81e"

TOTAL_EN_WORDS = 11250
TOTAL_DE_WORDS = 19220

START_MARK = "<s>"
END_MARK = "<e>"
UNK_MARK = "<unk>"


def _pairs(f):
    for line in f:
        pair = line.decode().strip().split("\t")
        if len(pair) == 2:
            yield pair


def __build_dict(tar_file, dict_size, save_path, lang):
    """Writes `lang`'s dictionary of the train set to `save_path`."""
    freq = defaultdict(int)
    with tarfile.open(tar_file, mode="r") as f:
        for pair in _pairs(f.extractfile("wmt16/train")):
            for w in pair[0 if lang == "en" else 1].split():
                freq[w] += 1
    with open(save_path, "wb") as fout:
        fout.write(("%s\n%s\n%s\n" % (START_MARK, END_MARK, UNK_MARK)).encode())
        ranked = sorted(freq.items(), key=lambda item: item[1], reverse=True)
        for idx, (word, _) in enumerate(ranked):
            if idx + 3 == dict_size:
                break
            fout.write(word.encode() + b"\n")


def __load_dict(tar_file, dict_size, lang, reverse=False):
    """word -> id (id -> word with `reverse`), building the file first
    when it is missing or not `dict_size` lines long."""
    dict_path = os.path.join(common.DATA_HOME, "wmt16/%s_%d.dict" % (lang, dict_size))
    if not os.path.exists(dict_path) or len(open(dict_path, "rb").readlines()) != dict_size:
        __build_dict(tar_file, dict_size, dict_path, lang)
    word_dict = {}
    with open(dict_path, "rb") as fdict:
        for idx, line in enumerate(fdict):
            word = line.strip().decode()
            if reverse:
                word_dict[idx] = word
            else:
                word_dict[word] = idx
    return word_dict


def __get_dict_size(src_dict_size, trg_dict_size, src_lang):
    src_total, trg_total = ((TOTAL_EN_WORDS, TOTAL_DE_WORDS) if src_lang == "en"
                            else (TOTAL_DE_WORDS, TOTAL_EN_WORDS))
    return min(src_dict_size, src_total), min(trg_dict_size, trg_total)


def reader_creator(tar_file, file_name, src_dict_size, trg_dict_size, src_lang):
    def reader():
        src_dict = __load_dict(tar_file, src_dict_size, src_lang)
        trg_dict = __load_dict(tar_file, trg_dict_size, "de" if src_lang == "en" else "en")
        # Both languages' dictionaries start with the same three marks; 1.x
        # took their ids from the source one.
        start_id = src_dict[START_MARK]
        end_id = src_dict[END_MARK]
        unk_id = src_dict[UNK_MARK]
        src_col = 0 if src_lang == "en" else 1
        with tarfile.open(tar_file, mode="r") as f:
            for pair in _pairs(f.extractfile(file_name)):
                src_ids = ([start_id] + [src_dict.get(w, unk_id) for w in pair[src_col].split()]
                           + [end_id])
                trg_ids = [trg_dict.get(w, unk_id) for w in pair[1 - src_col].split()]
                yield src_ids, [start_id] + trg_ids, trg_ids + [end_id]

    return reader


def _reader(file_name, src_dict_size, trg_dict_size, src_lang, message):
    if src_lang not in ["en", "de"]:
        raise ValueError(message)
    src_dict_size, trg_dict_size = __get_dict_size(src_dict_size, trg_dict_size, src_lang)
    return reader_creator(
        tar_file=common.download(DATA_URL, "wmt16", DATA_MD5, "wmt16.tar.gz"),
        file_name=file_name, src_dict_size=src_dict_size, trg_dict_size=trg_dict_size,
        src_lang=src_lang)


def train(src_dict_size, trg_dict_size, src_lang="en"):
    """The train set's reader (`wmt16/train`); `src_lang` is "en" or "de"."""
    return _reader("wmt16/train", src_dict_size, trg_dict_size, src_lang,
                   "An error language type.  Only support: en (for English); de(for Germany).")


def test(src_dict_size, trg_dict_size, src_lang="en"):
    """The test set's reader (`wmt16/test`)."""
    return _reader("wmt16/test", src_dict_size, trg_dict_size, src_lang,
                   "An error language type. Only support: en (for English); de(for Germany).")


def validation(src_dict_size, trg_dict_size, src_lang="en"):
    """The validation set's reader (`wmt16/val`)."""
    return _reader("wmt16/val", src_dict_size, trg_dict_size, src_lang,
                   "An error language type. Only support: en (for English); de(for Germany).")


def get_dict(lang, dict_size, reverse=False):
    """`lang`'s dictionary of `dict_size` words (capped as the readers cap
    it), which a reader must have written: word -> id, or id -> word with
    `reverse`. Like 1.x, a file of another length is rebuilt from
    `~/.cache/paddle/dataset/wmt16.tar.gz` (not wmt16/wmt16.tar.gz)."""
    dict_size = min(dict_size, TOTAL_EN_WORDS if lang == "en" else TOTAL_DE_WORDS)
    dict_path = os.path.join(common.DATA_HOME, "wmt16/%s_%d.dict" % (lang, dict_size))
    assert os.path.exists(dict_path), "Word dictionary does not exist. "
    tar_file = os.path.join(common.DATA_HOME, "wmt16.tar.gz")
    return __load_dict(tar_file, dict_size, lang, reverse)


def fetch():
    common.download(DATA_URL, "wmt16", DATA_MD5, "wmt16.tar.gz")


def convert(path, src_dict_size, trg_dict_size, src_lang):
    """1.x wrote the train, test and validation sets as RecordIO files."""
    for name, reader in (("wmt16_train", train), ("wmt16_test", test),
                         ("wmt16_validation", validation)):
        common.convert(path, reader(src_dict_size=src_dict_size, trg_dict_size=trg_dict_size,
                                    src_lang=src_lang), 1000, name)
