# Arrays of str as vocabulary-building and text-parsing scripts use them:
# np.array of words (dtype '<Un'), printing and summarizing, indexing and
# assignment (truncated to the width), comparisons, tolist, np.unique with
# counts, sorting, joining, np.where, astype both ways, numbers parsed from
# strings (np.array(line.split(), dtype='float32')), np.str_ scalars,
# random choice and permutation of words.
import numpy as np


def attempt(s):
    try:
        print(s, "->", repr(eval(s)))
    except Exception as e:
        print(s, "->", type(e).__name__, e)


w = np.array(["the", "cat", "sat", "on", "the", "mat"])
print(w, repr(w), w.dtype, w[1], repr(w[1]), w == "the", w.tolist())
print(w.shape, w.size, w.ndim, len(w), w.itemsize, w.nbytes, w.strides, w.dtype.kind, w.dtype.char, w.dtype.str, w.dtype.name,
      w.dtype.itemsize, w.dtype.type, type(w).__name__, isinstance(w, np.ndarray), type(w[0]))
print(w.dtype == "U3", w.dtype == np.dtype("<U3"), w.dtype == str, w.dtype == np.float32, np.dtype(str), np.dtype("U"), np.dtype("<U5"),
      repr(np.dtype("U7")), np.dtype("U5").alignment, np.dtype("U5").byteorder, np.dtype("U5").descr, np.dtype(np.str_), np.dtype("str").name)

# Printing.
m = np.array([["a", "bcd"], ["ef", "g"]])
print(m)
print(repr(m), repr(m.T), str(np.array("abc")), repr(np.array("abc")), repr(np.array("")))
print(np.array(["it's", 'a"b', "x\\y", "é"]), repr(np.array([], dtype=str)), np.array([], dtype=str))
print(repr(np.zeros((0, 3), dtype=str)), np.zeros((0, 3), dtype=str))
print(repr(np.array(["w%d" % i for i in range(30)])))
print(np.array(["word%d" % i for i in range(40)]).reshape(4, 10))
big = np.array(["w%d" % i for i in range(1200)])
print(big)
print(repr(big))
print(repr(big.reshape(2, 3, 200)))
print(repr(np.array(["a longer phrase %d" % i for i in range(12)]).reshape(3, 4)))
print([w], (w[0], w[:1]), "%s|%r" % (w[0], w[0]), "{}|{!r}".format(w, w[1]), f"{w[0]:>5}|{np.array('ab'):>4}|{w}")
np.set_printoptions(linewidth=30, threshold=8, edgeitems=2)
print(np.array(["alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta", "iota"]))
print(repr(np.array(["alpha", "beta", "gamma", "delta", "epsilon"])))
np.set_printoptions(linewidth=75, threshold=1000, edgeitems=3)

# Indexing.
m2 = w.reshape(2, 3)
for s in ["w[-1]", "w[::-1]", "w[1:4]", "w[[0, 2]]", "w[w != 'the']", "w[np.newaxis].shape", "w[:, None].shape",
          "m2", "m2[1]", "m2[1, 2]", "m2[:, 1]", "m2[..., 0]", "m2.T", "m2.flatten()", "m2.ravel()[0]", "w.reshape(3, -1)",
          "m2.transpose()", "np.transpose(m2)", "np.squeeze(w.reshape(1, 6))", "np.expand_dims(w, 0).shape", "m2.swapaxes(0, 1)",
          "w.repeat(2)[:4]", "w.take([1, 3])", "np.array('abc')[()]", "np.array('abc')[...]", "np.array(['ab', 'c'])[0][1]",
          "w[10]", "w['a']", "w.item(2)", "m2.item(1, 0)", "np.array(['z']).item()", "list(m2)", "[str(x) for x in w]",
          "sorted(set(w))", "'cat' in w", "'dog' in w", "w.copy()", "np.copy(w)", "np.array(w)", "np.asarray(w) is w",
          "np.array(w) is w", "w.view()", "bool(np.array(['']))", "bool(np.array(['a']))", "bool(w)", "bool(np.array([], dtype=str))"]:
    attempt(s)

# Assignment copies strings in, truncated to the array's width.
w2 = w.copy()
w2[0] = "elephant"
w2[1:3] = ["a", "bb"]
w2[w2 == "the"] = "THE"
w2[3] = 5
print(repr(w2), repr(w))
w3 = w.reshape(2, 3).copy()
w3[:, 0] = ["x", "y"]
w3[1] = "z"
print(repr(w3))
try:
    w3[0] = ["a", "b"]
except ValueError as e:
    print("ValueError", e)

# Comparisons and string addition.
for s in ["w == 1", "w != 1", "w == None", "w[0] == w", "np.array('ab') == 'ab'", "np.array(['a', 'b']) == np.array(['a', 'c'])",
          "np.array(['b']) > 'a'", "w < 'n'", "w >= w[::-1]", "m2 == ['the', 'cat', 'sat']", "w + 'x'", "'<' + w[:2] + '>'",
          "np.str_('x') == 'x'", "hash(np.str_('x')) == hash('x')", "np.str_('ab').dtype", "np.str_('').dtype", "np.str_('ab').shape",
          "np.str_('ab').item()", "np.str_('ab').upper()", "type(w[0].upper())", "np.str_('a') + 'b'", "repr(np.str_(\"it's\"))"]:
    attempt(s)

# Making arrays of str; numbers to str and back.
for s in ["np.array([['a'], ['b', 'c']], dtype=str)", "np.array(['a', [1]], dtype=str)", "np.array(['a', np.arange(2)], dtype=str)", "w.astype('U1')", "w.astype(str)",
          "w.astype('U')", "np.array(w, dtype='U2')", "np.array(['abc'], dtype='U')", "np.array(['abc'], dtype=np.str_)",
          "np.array(['a', np.str_('bb')])", "np.array([w, w])", "np.array(list('hello'))", "np.array(('a', 'b'))", "np.array(['a'], ndmin=2)",
          "np.array(['a', 1])", "np.array(['a', 1.5])", "np.array(['a', True])", "np.array(['a', np.int32(1), np.float32(2)])",
          "np.array(['a', np.float32(0.1)])", "np.array(['a', 1e20])", "np.array([['a'], np.array(['bcd'])])",
          "np.arange(3).astype(str)", "np.array([True]).astype(str)", "np.array([1.5, 2], dtype=np.float32).astype(str)",
          "np.array([1e20, 1e-7, 0.1]).astype(str)", "np.float32(1.5).astype(str)", "np.int64(3).astype('U1')",
          "np.zeros(2, dtype=str)", "np.zeros((2, 1), dtype='U3')", "np.empty(2, dtype='U3')", "np.ones(2, dtype=str)",
          "np.full(2, 'ab')", "np.full(2, 'ab', dtype='U1')",
          "np.array(['1.5', '2'], dtype='float32')", "np.array('1.5 2 -3e2'.split(), dtype=np.float64)",
          "np.asarray(['3', '4'], dtype=np.int64)", "np.array([' 2 ', '3'], dtype=np.int64)", "np.array([['1', 2.5]], dtype=np.float32)",
          "np.array(['0', '1', 'a', ''], dtype=bool)", "np.array(['1', '2.5']).astype(np.float32)", "np.array(['1', '2']).astype(np.int32)",
          "np.array(['1', '0', '']).astype(bool)", "np.array(['1.5'], dtype=np.int64)", "np.array(['abc'], dtype=np.float32)",
          "np.array(['1e3', 'nan', '-inf', '0x10'], dtype=np.float64)", "w.astype(float)", "np.array(['a', 'b']).astype(int)",
          "np.array(w, dtype=np.float32)"]:
    attempt(s)

# Sorting, unique, joining, where.
for s in ["np.sort(w)", "np.argsort(np.array(['b', 'c', 'a']))", "np.array(['b', 'c', 'a']).argsort()",
          "np.array([['b', 'a'], ['d', 'c']]).argsort(axis=0)", "np.sort(np.array([['b', 'a'], ['d', 'c']]))",
          "np.sort(np.array([['b', 'a'], ['d', 'c']]), axis=None)", "np.sort(['pear', 'apple'])",
          "np.unique(w)", "np.unique(w, return_counts=True)", "np.unique(w, return_index=True, return_inverse=True)",
          "np.unique([['b', 'a'], ['a', 'c']], return_inverse=True)", "np.unique(np.array([], dtype=str))", "np.unique(['b', 'a', 'b'])",
          "np.where(w == 'the', w, 'X')", "np.where([True, False], 'yes', 'no')", "np.concatenate([w[:2], np.array(['elephant'])])",
          "np.concatenate([m2, m2], axis=1)", "np.hstack([w, ['x']])", "np.stack([w, w])", "np.vstack([w, w]).shape", "np.stack([w, w], axis=1)[2]"]:
    attempt(s)
v = np.array(["pear", "fig", "apple"])
v.sort()
print(v)

# Building a vocabulary.
text = "the cat sat on the mat and the dog sat on the log"
words = np.array(text.split())
vocab, counts = np.unique(words, return_counts=True)
order = np.argsort(-counts, kind="stable")
vocab = vocab[order]
word_to_id = dict(zip(vocab, range(len(vocab))))
ids = np.array([word_to_id[t] for t in words])
print(vocab, counts[order], ids, vocab[ids[:4]], word_to_id["the"], type(list(word_to_id)[0]).__name__)
print(dict(zip(*np.unique(words, return_counts=True))))

# Parsing a CSV-like table of strings.
lines = ["5.1,3.5,setosa", "4.9,3.0,setosa", "6.2,2.9,versicolor"]
table = np.array([line.split(",") for line in lines])
features = table[:, :2].astype(np.float32)
labels = table[:, 2]
classes = np.unique(labels)
print(table, repr(features), labels, classes, (labels == "setosa").astype(np.int64), np.searchsorted(classes, labels) if False else None)
print(np.where(labels == classes[1])[0], features[labels == "setosa"].mean(axis=0))

# Random words.
np.random.seed(3)
print(np.random.choice(w), repr(np.random.choice(w, 4)), repr(np.random.choice(["a", "b", "c"], size=3)))
s = w.copy()
np.random.shuffle(s)
print(s, np.random.permutation(w))
