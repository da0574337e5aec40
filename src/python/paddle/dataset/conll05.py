"""paddle.dataset.conll05: the CoNLL-2005 semantic role labeling test set
(WSJ section 23), as 1.x gave it for the label_semantic_roles book
chapter.

Files, in `~/.cache/paddle/dataset/conll05st/` under the names 1.x gave
them (the URL's last part, `%2F` included): `conll05st-tests.tar.gz`
(`conll05st-release/test.wsj/words/test.wsj.words.gz` and
`.../props/test.wsj.props.gz`), `conll05st%2FwordDict.txt`,
`conll05st%2FverbDict.txt`, `conll05st%2FtargetDict.txt` (a word a line)
and `conll05st%2Femb` (the embedding, whose path `get_embedding()` gives).

`test()` yields one sample per predicate of each sentence: nine lists of
the sentence's length, `(word ids, ctx_n2, ctx_n1, ctx_0, ctx_p1, ctx_p2,
predicate ids, mark, label ids)`, the five context words being the ones
around the predicate (`bos`/`eos` past the ends; unknown words are id 0),
`mark` 1 on the predicate and the two words either side, the labels the
props' bracketed arguments as B-/I-/O tags. The label dictionary numbers
the tags of targetDict.txt in a set's iteration order, as 1.x's did.
"""
import gzip
import tarfile

from . import common

__all__ = ["test", "get_dict", "get_embedding", "convert"]

DATA_URL = "http://paddlemodels.bj.bcebos.com/conll05st/conll05st-tests.tar.gz"
DATA_MD5 = "387719152ae52d60422c016e92a742fc"
WORDDICT_URL = "http://paddlemodels.bj.bcebos.com/conll05st%2FwordDict.txt"
WORDDICT_MD5 = "ea7fb7d4c75cc6254716f0177a506baa"
VERBDICT_URL = "http://paddlemodels.bj.bcebos.com/conll05st%2FverbDict.txt"
VERBDICT_MD5 = "0d2977293bbb6cbefab5b0f97db1e77c"
TRGDICT_URL = "http://paddlemodels.bj.bcebos.com/conll05st%2FtargetDict.txt"
TRGDICT_MD5 = "d8c7f03ceb5fc2e5a0fa7503a4353751"
EMB_URL = "http://paddlemodels.bj.bcebos.com/conll05st%2Femb"
EMB_MD5 = "bf436eb0faa1f6f9103017f8be57cdb7"

UNK_IDX = 0


def load_label_dict(filename):
    """`B-X` and `I-X` for each tag X of the file's `B-`/`I-` lines (two
    consecutive ids a tag), then `O`."""
    tags = set()
    with open(filename, "r") as f:
        for line in f:
            line = line.strip()
            if line.startswith("B-") or line.startswith("I-"):
                tags.add(line[2:])
    d = {}
    for tag in tags:
        d["B-" + tag] = len(d)
        d["I-" + tag] = len(d)
    d["O"] = len(d)
    return d


def load_dict(filename):
    """Line (stripped) -> line number."""
    d = {}
    with open(filename, "r") as f:
        for i, line in enumerate(f):
            d[line.strip()] = i
    return d


def _tags(column):
    """A predicate's argument column (`(A0*`, `*`, `*)`, `(V*)`, ...) as
    B-/I-/O tags."""
    tags = []
    tag = "O"
    inside = False
    for mark in column:
        if mark == "*":
            tags.append("I-" + tag if inside else "O")
        elif mark == "*)":
            tags.append("I-" + tag)
            inside = False
        elif "(" in mark:
            tag = mark[1:mark.find("*")]
            tags.append("B-" + tag)
            inside = ")" not in mark
        else:
            raise RuntimeError("Unexpected label: %s" % mark)
    return tags


def corpus_reader(data_path, words_name, props_name):
    """A reader of `(words, predicate, tags)` per predicate of each
    sentence of the tarball's gzipped words and props files (read in
    step; a blank props line ends a sentence)."""
    def reader():
        tf = tarfile.open(data_path)
        wf = tf.extractfile(words_name)
        pf = tf.extractfile(props_name)
        with gzip.GzipFile(fileobj=wf) as words_file, gzip.GzipFile(fileobj=pf) as props_file:
            sentence = []
            rows = []
            for word, props in zip(words_file, props_file):
                word = word.strip().decode()
                props = props.strip().decode().split()
                if props:
                    sentence.append(word)
                    rows.append(props)
                    continue
                columns = [[row[i] for row in rows] for i in range(len(rows[0]))]
                if columns:
                    verbs = [v for v in columns[0] if v != "-"]
                    for i, column in enumerate(columns[1:]):
                        tags = _tags(column)
                        yield sentence, verbs[i], tags
                sentence = []
                rows = []
        pf.close()
        wf.close()
        tf.close()

    return reader


def reader_creator(corpus_reader, word_dict=None, predicate_dict=None, label_dict=None):
    """The samples of `corpus_reader`'s sentences as ids."""
    def reader():
        for sentence, predicate, labels in corpus_reader():
            n = len(sentence)
            verb = labels.index("B-V")
            mark = [0] * len(labels)

            def around(offset, outside):
                j = verb + offset
                if 0 <= j < len(labels):
                    mark[j] = 1
                    return sentence[j]
                return outside

            ctx_n1 = around(-1, "bos")
            ctx_n2 = around(-2, "bos")
            ctx_0 = around(0, None)
            ctx_p1 = around(1, "eos")
            ctx_p2 = around(2, "eos")

            def ctx(w):
                return [word_dict.get(w, UNK_IDX)] * n

            yield ([word_dict.get(w, UNK_IDX) for w in sentence], ctx(ctx_n2), ctx(ctx_n1),
                   ctx(ctx_0), ctx(ctx_p1), ctx(ctx_p2), [predicate_dict.get(predicate)] * n,
                   mark, [label_dict.get(t) for t in labels])

    return reader


def get_dict():
    """(word dict, verb dict, label dict) of the SRL model."""
    word_dict = load_dict(common.download(WORDDICT_URL, "conll05st", WORDDICT_MD5))
    verb_dict = load_dict(common.download(VERBDICT_URL, "conll05st", VERBDICT_MD5))
    label_dict = load_label_dict(common.download(TRGDICT_URL, "conll05st", TRGDICT_MD5))
    return word_dict, verb_dict, label_dict


def get_embedding():
    """The path of the pre-trained word embedding file."""
    return common.download(EMB_URL, "conll05st", EMB_MD5)


def test():
    """The test set's reader (1.x used it to train, the train set not being
    free)."""
    word_dict, verb_dict, label_dict = get_dict()
    reader = corpus_reader(
        common.download(DATA_URL, "conll05st", DATA_MD5),
        words_name="conll05st-release/test.wsj/words/test.wsj.words.gz",
        props_name="conll05st-release/test.wsj/props/test.wsj.props.gz")
    return reader_creator(reader, word_dict, verb_dict, label_dict)


def fetch():
    common.download(WORDDICT_URL, "conll05st", WORDDICT_MD5)
    common.download(VERBDICT_URL, "conll05st", VERBDICT_MD5)
    common.download(TRGDICT_URL, "conll05st", TRGDICT_MD5)
    common.download(EMB_URL, "conll05st", EMB_MD5)
    common.download(DATA_URL, "conll05st", DATA_MD5)


def convert(path):
    """1.x wrote the test set (twice) as RecordIO files."""
    common.convert(path, test(), 1000, "conl105_train")
    common.convert(path, test(), 1000, "conl105_test")
