# keras' fasttext example, ported to Fluid in 2019: bigrams of word ids
# numbered by enumerating a set of tuples, and label ids from a set of
# ints; CPython gives the same ids on every run.
sentences = [[1, 4, 9, 4, 1, 4], [7, 3, 12, 99, 5], [4, 9, 2]]
ngram_set = set()
for ids in sentences:
    for pair in zip(ids, ids[1:]):
        ngram_set.add(pair)
token_indice = {v: k + 100 for k, v in enumerate(ngram_set)}
print(sorted(token_indice.items())[:4], list(ngram_set)[:5])
print(hash((1, 4)), hash((4, 9, 1)), hash(()), hash(((1, 2), 3.5, -1)))
labels = [7, 3, 3, 0, 12, 7, 5, 100, 64, 33, 16, -4]
label_ids = dict(zip(set(labels), range(len(labels))))
print(label_ids)
print({(i * 7919) % 1000 for i in range(30)})
