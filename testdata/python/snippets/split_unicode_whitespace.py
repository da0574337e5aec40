# Chinese corpora as 2019 text scripts read them: full-width spaces
# (U+3000), no-break spaces from web pages, and ASCII separators, split and
# stripped with no argument; a vocabulary built from them.
lines = [
    "今天\u3000天气\u3000很好\n",
    "\xa0北京\xa0欢迎你\xa0\r\n",
    "word1\u2003word2  word3\t\n",
    "field\x1cfield2\x1fend",
    "\u3000\u3000段落开头缩进",
    "中 文\u3000混合 text\u00a0mix",
]
vocab = {}
for line in lines:
    for w in line.strip().split():
        vocab[w] = vocab.get(w, 0) + 1
    print(line.split(), line.rsplit(None, 1), line.split(None, 1), repr(line.strip()))
    print(repr(line.lstrip()), repr(line.rstrip()))
print(sorted(vocab.items()))
print("a\u200bb".split(), "x\ufeffy".split(), "\u3000".split(), "".split(), " \u3000 ".strip() == "")
